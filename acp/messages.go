package acp

import (
	"errors"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// message is a text of this package's errors: each has an English and a French version in
// messagesEN and messagesFR. The English one is also the error's Error().
type message int

// The messages.
const (
	mAuthRequired message = iota
	mNoLoginMethod
	mLoginMethods
	mVersion
	mInitTimeout
	mOversize
	mRPC
	mAgentExited
	mClosed
	mNoLoadSession
	messageCount // not a message: the number of keys
)

var messagesEN = [messageCount]string{
	mAuthRequired:  "agent %q needs you to sign in (%s): Agent ▸ Sign in…, or set the key it reads with Agent ▸ Secrets…",
	mNoLoginMethod: "it lists no login method",
	mLoginMethods:  "methods: %s",
	mVersion:       "agent %q speaks ACP protocol version %s; Sidekicks speaks version %d",
	mInitTimeout:   "the agent %q did not answer initialize within %s",
	mOversize:      "the agent's answer to %s was %s, over the %s limit; it was skipped",
	mRPC:           "the agent refused %s: %s (error %d)",
	mAgentExited:   "the agent exited",
	mClosed:        "the connection to the agent was closed",
	mNoLoadSession: "the agent does not support session/load",
}

var messagesFR = [messageCount]string{
	mAuthRequired:  "l'agent %q demande que vous vous connectiez (%s) : Agent ▸ Se connecter…, ou donnez-lui la clé qu'il lit avec Agent ▸ Secrets…",
	mNoLoginMethod: "il n'indique aucune méthode de connexion",
	mLoginMethods:  "méthodes : %s",
	mVersion:       "l'agent %q parle la version %s du protocole ACP ; Sidekicks parle la version %d",
	mInitTimeout:   "l'agent %q n'a pas répondu à initialize en %s",
	mOversize:      "la réponse de l'agent à %s faisait %s, au-delà de la limite de %s ; elle a été ignorée",
	mRPC:           "l'agent a refusé %s : %s (erreur %d)",
	mAgentExited:   "l'agent s'est arrêté",
	mClosed:        "la connexion à l'agent a été fermée",
	mNoLoadSession: "l'agent ne sait pas reprendre une session (session/load)",
}

// catalogue holds the messages in every language.
var catalogue = i18n.NewCatalogue[message](messagesEN[:], messagesFR[:])

// Describe says what went wrong with a connection, for the user, in lang: the errors of
// this package in the user's language, any other error as its own message. Every string
// in the result that came from the agent has had its control characters removed.
func Describe(err error, lang i18n.Lang) string {
	var (
		auth     *AuthRequiredError
		version  *VersionError
		timeout  *InitTimeoutError
		oversize *OversizeError
		rpc      *RPCError
		choice   *ChoiceError
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &auth):
		return auth.text(lang)
	case errors.As(err, &version):
		return version.text(lang)
	case errors.As(err, &timeout):
		return timeout.text(lang)
	case errors.As(err, &oversize):
		return oversize.text(lang)
	case errors.As(err, &rpc):
		return rpc.text(lang)
	case errors.As(err, &choice):
		return choice.text(lang)
	case errors.Is(err, ErrAgentExited):
		return catalogue.Text(lang, mAgentExited)
	case errors.Is(err, ErrClosed):
		return catalogue.Text(lang, mClosed)
	case errors.Is(err, ErrNoLoadSession):
		return catalogue.Text(lang, mNoLoadSession)
	}
	return err.Error()
}

// methodList names the login methods, cleaned, for a message in lang.
func (e *AuthRequiredError) methodList(lang i18n.Lang) string {
	if len(e.Methods) == 0 {
		return catalogue.Text(lang, mNoLoginMethod)
	}
	names := make([]string, 0, len(e.Methods))
	for _, m := range e.Methods {
		n := m.Name
		if n == "" {
			n = m.ID
		}
		names = append(names, safetext.Snippet(n, 80))
	}
	return catalogue.Text(lang, mLoginMethods, strings.Join(names, ", "))
}
