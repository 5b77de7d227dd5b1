package acp

import (
	"errors"
	"fmt"
	"strings"
)

// Describe says what went wrong with a connection, for the user, in English ("en") or
// French ("fr"): the errors of this package in the user's language, any other error as
// its own message. Every string in the result that came from the agent has had its
// control characters removed.
func Describe(err error, lang string) string {
	fr := strings.HasPrefix(lang, "fr")
	var (
		auth     *AuthRequiredError
		version  *VersionError
		timeout  *InitTimeoutError
		oversize *OversizeError
		rpc      *RPCError
	)
	switch {
	case err == nil:
		return ""
	case errors.As(err, &auth):
		if fr {
			return fmt.Sprintf("l'agent %q exige une connexion que Sidekicks ne sait pas faire (%s) ; connectez-vous d'abord avec sa propre commande",
				auth.Agent, frMethods(auth))
		}
		return auth.Error()
	case errors.As(err, &version):
		if fr {
			return fmt.Sprintf("l'agent %q parle la version %s du protocole ACP ; Sidekicks parle la version %d",
				version.Agent, version.Theirs, version.Ours)
		}
		return version.Error()
	case errors.As(err, &timeout):
		if fr {
			return fmt.Sprintf("l'agent %q n'a pas répondu à initialize en %s", timeout.Agent, timeout.After)
		}
		return timeout.Error()
	case errors.As(err, &oversize):
		if fr {
			return fmt.Sprintf("la réponse de l'agent à %s faisait %s, au-delà de la limite de %s ; elle a été ignorée",
				oversize.Method, byteSize(oversize.Size), byteSize(int64(oversize.Limit)))
		}
		return oversize.Error()
	case errors.As(err, &rpc):
		if fr {
			return fmt.Sprintf("l'agent a refusé %s : %s (erreur %d)", rpc.Method, rpc.Message, rpc.Code)
		}
		return rpc.Error()
	case errors.Is(err, ErrAgentExited):
		if fr {
			return "l'agent s'est arrêté"
		}
		return ErrAgentExited.Error()
	case errors.Is(err, ErrClosed):
		if fr {
			return "la connexion à l'agent a été fermée"
		}
		return ErrClosed.Error()
	case errors.Is(err, ErrNoLoadSession):
		if fr {
			return "l'agent ne sait pas reprendre une session (session/load)"
		}
		return ErrNoLoadSession.Error()
	}
	return err.Error()
}

func frMethods(e *AuthRequiredError) string {
	if len(e.Methods) == 0 {
		return "il n'indique aucune méthode de connexion"
	}
	return "méthodes : " + strings.TrimPrefix(e.methodList(), "methods: ")
}
