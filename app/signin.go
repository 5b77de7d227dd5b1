package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// How long signing in may take: the agent may wait for the user on a browser page.
const (
	signInStartWait = 2 * time.Minute
	signInWait      = 10 * time.Minute
	signOutWait     = 30 * time.Second
)

// target is the agent a sign-in, a secret or a session option is about, and the
// conversation of the window it was asked from (has is false when the window shows none).
type target struct {
	agent string
	key   chat.Key
	has   bool
}

// pickAgent calls f with the agent the focused window is about: an agent window's agent;
// otherwise (a channel, another window) the one the user picks among the configuration's.
func (ap *application) pickAgent(f func(target)) {
	k, has := ap.focusedKey()
	if w := ap.focusedWindow(); w != nil && w.kind == winAgent {
		f(target{w.agent, k, has})
		return
	}
	if len(ap.cfg.Agents) == 0 {
		ap.app.Flash(signInCatalogue.Text(ap.lang, imsgNoAgent))
		return
	}
	items := make([]window.ChoiceItem, len(ap.cfg.Agents))
	for i, a := range ap.cfg.Agents {
		items[i] = window.ChoiceItem{Text: a.Name}
	}
	agents := ap.cfg.Agents
	ap.app.Choose(window.Choice{Title: signInCatalogue.Text(ap.lang, imsgPickAgent), Items: items}, func(i int, ok bool) {
		if ok {
			f(target{agents[i].Name, k, has})
		}
	})
}

// tell shows a result on the status bar and, when the request came from a conversation's
// window, as a notice in that conversation (where it stays).
func (ap *application) tell(t target, text string) {
	ap.app.Flash(safetext.Line(text))
	if !t.has {
		return
	}
	if conv, ok := ap.agents.Service().Conversation(t.key); ok {
		conv.AddNotice(text)
	}
}

// signIn is Agent ▸ Sign in…: the agent is started when needed, then its login methods
// are offered, with setting a key it reads and signing out when it offers it.
func (ap *application) signIn() { ap.pickAgent(ap.signInTo) }

// turnEnded is the stack's TurnEnded: a turn refused for lack of a login in the focused
// window, with no dialog open, offers the agent's login methods at once (the window says
// the agent's own message beside).
//
// A turn refused so right after a sign-in that said it worked means the method did not
// sign the agent in (gemini-cli's "Gemini API key" answers success with no key set): that
// is said, with the variable the agent or its methods name, and Agent ▸ Secrets… opens.
func (ap *application) turnEnded(k chat.Key, r chat.TurnResult) {
	ap.app.Post(func() {
		method, after := ap.signedIn[r.Agent]
		delete(ap.signedIn, r.Agent)
		if !agentstack.NeedsSignIn(r.Err) {
			return
		}
		t := target{r.Agent, k, true}
		fk, ok := ap.focusedKey()
		here := ok && fk == k && ap.app.Dialogs() == 0
		if !after {
			if here {
				ap.signInTo(t)
			}
			return
		}
		name := refusalKeyVariable(r.Err)
		text := signInCatalogue.Text(ap.lang, imsgSignInHollow, t.agent, method)
		if name != "" {
			text = signInCatalogue.Text(ap.lang, imsgSignInHollowKey, t.agent, method, name)
		}
		ap.tell(t, text)
		if here {
			ap.askSecretNamed(t, name)
		}
	})
}

// keyVariableRE finds the name of a key's environment variable in a text (GEMINI_API_KEY,
// EXAMPLE_TOKEN).
var keyVariableRE = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|TOKEN)\b`)

// keyVariable is the first key variable one of texts names, "" when none does.
func keyVariable(texts ...string) string {
	for _, t := range texts {
		if v := keyVariableRE.FindString(t); v != "" && !reservedVariable(v) {
			return v
		}
	}
	return ""
}

// refusalKeyVariable is the key variable an agent's refusal for lack of a login names, in
// its message, else in the description or name of one of its key methods.
func refusalKeyVariable(err error) string {
	var auth *acp.AuthRequiredError
	if !errors.As(err, &auth) {
		return ""
	}
	texts := []string{auth.Message}
	for _, m := range auth.Methods {
		if keyMethod(agentstack.LoginMethod{ID: m.ID, Name: m.Name, Description: m.Description}) {
			texts = append(texts, m.Description, m.Name)
		}
	}
	return keyVariable(texts...)
}

// keyMethod says whether a login method is evidently a key the agent reads from its
// environment ("Gemini API key"): setting the key is what signs it in, not authenticate.
func keyMethod(m agentstack.LoginMethod) bool {
	t := strings.ToLower(m.ID + " " + m.Name + " " + m.Description)
	return strings.Contains(t, "api key") || strings.Contains(t, "api-key") || strings.Contains(t, "api_key")
}

// signInTo offers the login methods of an agent, started first when needed.
func (ap *application) signInTo(t target) {
	c := ap.agents
	ap.work.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), signInStartWait)
		startErr := c.StartAgent(ctx, t.agent)
		cancel()
		methods, canLogout, err := c.LoginMethods(t.agent)
		ap.app.Post(func() {
			if err != nil {
				if startErr == nil {
					startErr = err
				}
				ap.tell(t, signInCatalogue.Text(ap.lang, imsgStartFailed, t.agent, agentstack.DescribeError(startErr, ap.lang)))
				return
			}
			ap.chooseLogin(t, methods, canLogout)
		})
	})
}

// chooseLogin offers the agent's login methods.
func (ap *application) chooseLogin(t target, methods []agentstack.LoginMethod, canLogout bool) {
	var items []window.ChoiceItem
	for _, m := range methods {
		text := safetext.Snippet(safetext.Line(m.Name), 80)
		if text == "" {
			text = safetext.Snippet(safetext.Line(m.ID), 80)
		}
		if d := safetext.Line(m.Description); d != "" {
			text += " — " + safetext.Snippet(d, 80)
		}
		item := window.ChoiceItem{Text: text}
		switch {
		case m.Terminal:
			item.Mark, item.MarkClass = signInCatalogue.Text(ap.lang, imsgMarkTerminal), window.ClassComment
		case keyMethod(m):
			item.Mark, item.MarkClass = signInCatalogue.Text(ap.lang, imsgMarkKey), window.ClassComment
		}
		items = append(items, item)
	}
	setKey := len(items)
	items = append(items, window.ChoiceItem{Text: signInCatalogue.Text(ap.lang, imsgSetKey)})
	signOut := -1
	if canLogout {
		signOut = len(items)
		items = append(items, window.ChoiceItem{Text: signInCatalogue.Text(ap.lang, imsgSignOut)})
	}
	if len(methods) == 0 {
		ap.app.Flash(signInCatalogue.Text(ap.lang, imsgNoMethods, t.agent))
	}
	ap.app.Choose(window.Choice{Title: signInCatalogue.Text(ap.lang, imsgSignInTitle, t.agent), Items: items}, func(i int, ok bool) {
		switch {
		case !ok:
		case i == setKey:
			ap.askSecret(t)
		case i == signOut:
			ap.signOut(t)
		case methods[i].Terminal:
			ap.terminalLogin(t, methods[i])
		case keyMethod(methods[i]):
			ap.askSecretNamed(t, keyVariable(methods[i].Description, methods[i].Name))
		default:
			ap.agentLogin(t, methods[i])
		}
	})
}

// methodName is a method's name for a message, cleaned.
func methodName(m agentstack.LoginMethod) string {
	if m.Name != "" {
		return safetext.Snippet(safetext.Line(m.Name), 80)
	}
	return safetext.Snippet(safetext.Line(m.ID), 80)
}

// agentLogin asks the agent to sign in with a method of its own (authenticate), saying
// so while it runs.
func (ap *application) agentLogin(t target, m agentstack.LoginMethod) {
	ap.tell(t, signInCatalogue.Text(ap.lang, imsgSigningIn, t.agent, methodName(m)))
	ap.log.Printf("signing in to %s with %q", t.agent, m.ID)
	c := ap.agents
	ap.work.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), signInWait)
		err := c.SignIn(ctx, t.agent, m.ID)
		cancel()
		ap.app.Post(func() {
			if err != nil {
				ap.log.Printf("signing in to %s: %v", t.agent, err)
				ap.tell(t, signInCatalogue.Text(ap.lang, imsgSignInFailed, t.agent, agentstack.DescribeError(err, ap.lang)))
				return
			}
			ap.signedInWith(t.agent, m)
			ap.tell(t, signInCatalogue.Text(ap.lang, imsgSignedIn, t.agent, methodName(m)))
		})
	})
}

// terminalLogin runs the agent's program with the method's arguments and environment on
// the terminal, the screen suspended; a zero exit is a success.
func (ap *application) terminalLogin(t target, m agentstack.LoginMethod) {
	cmd, err := ap.agents.TerminalLogin(t.agent, m.ID)
	if err == nil {
		ap.log.Printf("signing in to %s with %q in the terminal: %s", t.agent, m.ID, strings.Join(cmd.Args, " "))
		err = ap.app.Suspend(func() error {
			fmt.Fprintf(os.Stdout, "\r\n%s\r\n\r\n", signInCatalogue.Text(ap.lang, imsgTerminalHeader, t.agent, methodName(m)))
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
			return cmd.Run()
		})
	}
	if err != nil {
		ap.log.Printf("signing in to %s in the terminal: %v", t.agent, err)
		ap.tell(t, signInCatalogue.Text(ap.lang, imsgTerminalFailed, t.agent, safetext.Line(err.Error())))
		return
	}
	ap.signedInWith(t.agent, m)
	ap.tell(t, signInCatalogue.Text(ap.lang, imsgSignedIn, t.agent, methodName(m)))
}

// signedInWith remembers that the agent said it signed in with m, for its next turn to
// tell whether it did.
func (ap *application) signedInWith(agent string, m agentstack.LoginMethod) {
	if ap.signedIn == nil {
		ap.signedIn = map[string]string{}
	}
	ap.signedIn[agent] = methodName(m)
}

// signOut asks the agent to sign out (logout).
func (ap *application) signOut(t target) {
	c := ap.agents
	ap.work.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), signOutWait)
		err := c.SignOut(ctx, t.agent)
		cancel()
		ap.app.Post(func() {
			if err != nil {
				ap.tell(t, signInCatalogue.Text(ap.lang, imsgSignOutFailed, t.agent, agentstack.DescribeError(err, ap.lang)))
				return
			}
			ap.log.Printf("signed out of %s", t.agent)
			ap.tell(t, signInCatalogue.Text(ap.lang, imsgSignedOut, t.agent))
		})
	})
}

// showSecrets is Agent ▸ Secrets….
func (ap *application) showSecrets() { ap.pickAgent(ap.askSecret) }

// askSecret asks for one of the agent's secrets, the first one set offered.
func (ap *application) askSecret(t target) { ap.askSecretNamed(t, "") }

// askSecretNamed asks for the name of one of the agent's secrets (name offered, when
// given), then its value (masked), and saves it; the agent gets it at its next start (it
// is stopped once its turns end, when it runs, so that the next message starts it with the
// secret).
func (ap *application) askSecretNamed(t target, name string) {
	ap.work.Do(func() {
		var known []string
		if path, err := secretsPath(); err == nil {
			if s, err := readSecrets(path); err == nil {
				known = secretNames(s, t.agent)
			}
		}
		ap.app.Post(func() {
			prompt := signInCatalogue.Text(ap.lang, imsgSecretName)
			first := ""
			if len(known) > 0 {
				prompt, first = signInCatalogue.Text(ap.lang, imsgSecretNameKnown, strings.Join(known, ", ")), known[0]
			}
			if name != "" {
				first = name
			}
			title := signInCatalogue.Text(ap.lang, imsgSecretsTitle, t.agent)
			ap.app.AskText(window.TextEntry{Title: title, Prompt: prompt, Text: first, Validate: func(name string) string {
				return ap.secretProblemText(strings.TrimSpace(name), "")
			}}, func(name string, ok bool) {
				if !ok {
					return
				}
				name = strings.TrimSpace(name)
				ap.app.AskText(window.TextEntry{Title: title, Prompt: signInCatalogue.Text(ap.lang, imsgSecretValue, name), Secret: true,
					Validate: func(value string) string { return ap.secretProblemText(name, value) }}, func(value string, ok bool) {
					if ok {
						ap.saveSecret(t, name, value)
					}
				})
			})
		})
	})
}

// secretProblemText says what is wrong with a secret's name or value, "" when nothing is.
func (ap *application) secretProblemText(name, value string) string {
	if p := secretProblem(name, value); p != imsgNone {
		return signInCatalogue.Text(ap.lang, p)
	}
	return ""
}

// saveSecret writes the secret, gives the agents their new environment, and stops the
// agent once its turns end when it runs.
func (ap *application) saveSecret(t target, name, value string) {
	c, agents := ap.agents, ap.cfg.Agents
	ap.work.Do(func() {
		path, err := secretsPath()
		if err == nil {
			err = setSecret(path, t.agent, name, value)
		}
		if err == nil {
			c.SetAgents(ap.agentsWithSecrets(agents))
		}
		running := err == nil && c.Supervisor().State(t.agent).Pid != 0
		if running {
			c.Supervisor().StopAfterTurns(t.agent, runtime.ReasonNewSecrets)
		}
		ap.app.Post(func() {
			if err != nil {
				ap.log.Printf("saving a secret of %s: %v", t.agent, err)
				ap.tell(t, signInCatalogue.Text(ap.lang, imsgSecretFailed, safetext.Line(err.Error())))
				return
			}
			ap.log.Printf("saved the secret %s of %s", name, t.agent)
			text := signInCatalogue.Text(ap.lang, imsgSecretSaved, name, t.agent)
			if value == "" {
				text = signInCatalogue.Text(ap.lang, imsgSecretRemoved, name, t.agent)
			}
			if running {
				text += " · " + signInCatalogue.Text(ap.lang, imsgSecretRestart, t.agent)
			}
			ap.tell(t, text)
		})
	})
}
