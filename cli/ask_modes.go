package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/app"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// askChoicesTimeout bounds the agent's answers to --mode and --option.
const askChoicesTimeout = 30 * time.Second

// askChoices are --mode and --option: what ask sends the session before the prompt.
type askChoices struct {
	mode    string
	options optionFlags
}

// addFlags declares --mode and --option on ask's flags.
func (c *askChoices) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.mode, "mode", "", "put the session in the mode `ID` (session/set_mode) before the prompt")
	fs.Var(&c.options, "option", "set the session option `ID=VALUE` (session/set_config_option) before the prompt; repeatable; a boolean takes true or false")
}

// opened is the supervisor's SessionOpened: it sends the mode, then the options, and
// fails the session (so the turn, before its prompt) when the agent has no such mode or
// option or refuses it.
func (c *askChoices) opened(_ string, s *acp.Session, _ bool) error {
	if c == nil || c.mode == "" && len(c.options.values) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), askChoicesTimeout)
	defer cancel()
	return agentstack.ApplyChoices(ctx, s, c.mode, c.options.values)
}

// secrets adds the agents' secrets (Agent ▸ Secrets… in the application) to their
// environment; a secrets file that cannot be read is said on stderr and adds none.
func (c *askChoices) secrets(agents []config.Agent, stderr io.Writer) []config.Agent {
	out, err := app.WithAgentSecrets(agents)
	if err != nil {
		fmt.Fprintf(stderr, "sidekicks ask: %s\n", safetext.Line(err.Error()))
	}
	return out
}

// optionFlags are the repeated --option ID=VALUE.
type optionFlags struct{ values map[string]string }

func (o *optionFlags) String() string {
	var parts []string
	for k, v := range o.values {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

func (o *optionFlags) Set(s string) error {
	id, value, ok := strings.Cut(s, "=")
	if !ok || id == "" {
		return errors.New("expected ID=VALUE")
	}
	if o.values == nil {
		o.values = map[string]string{}
	}
	o.values[id] = value
	return nil
}
