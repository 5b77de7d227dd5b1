package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

const askSynopsis = "sidekicks ask [--config FILE] [--yes] [--trace FILE] [--mode ID] [--option ID=VALUE]… AGENT PROMPT…"

// Exit statuses of `sidekicks ask` besides 0 (end_turn) and 2 (usage).
const (
	askExitError     = 1
	askExitUsage     = 2
	askExitRefusal   = 3
	askExitLimit     = 4
	askExitCancelled = 130
)

// askCancelGrace is how long the agent has to end its turn after Ctrl-C before ask stops
// it.
const askCancelGrace = 5 * time.Second

// askStopGrace stops an agent that ignored Ctrl-C sooner than the application does.
var askStopGrace = runtime.StopGrace{AfterStdin: time.Second, AfterTerm: 2 * time.Second, Drain: time.Second}

// askEnv is what ask takes from its surroundings, so that tests can drive it.
type askEnv struct {
	// interrupts receives Ctrl-C (SIGINT).
	interrupts <-chan os.Signal
	// cancelGrace is how long the agent has to end a cancelled turn.
	cancelGrace time.Duration
	// version is Sidekicks' version, announced to the agent.
	version string
}

// runAsk runs one turn with an agent of the configuration, without the screen.
func (p program) runAsk(args []string, stdout, stderr io.Writer) int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	return ask(args, stdout, stderr, askEnv{interrupts: sigs, cancelGrace: askCancelGrace, version: p.version})
}

func ask(args []string, stdout, stderr io.Writer, env askEnv) int {
	fs := newFlags("ask", askSynopsis, stderr)
	cfgPath := fs.String("config", "", "the configuration `FILE` (default: $SIDEKICKS_CONFIG, then the last file opened, then the default file)")
	yes := fs.Bool("yes", false, "allow the agent's permission requests (an \"allow once\" option, else \"allow always\") and its writes through Sidekicks; both are refused otherwise")
	tracePath := fs.String("trace", "", "append every ACP message to `FILE`, as "+acp.TraceEnv+" does")
	var choices askChoices // ask_modes.go
	choices.addFlags(fs)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintf(stderr, "sidekicks ask: %s\n", askCatalogue.Text(config.LanguageOf(nil), askNeedArgs))
		fs.Usage()
		return askExitUsage
	}
	name, prompt := fs.Arg(0), strings.Join(fs.Args()[1:], " ")

	cfg, lang, code := askConfig(*cfgPath, stderr)
	if cfg == nil {
		return code
	}
	cfg.Agents = choices.secrets(cfg.Agents, stderr) // ask_modes.go
	if cfg.Agent(name) == nil {
		var names []string
		for _, a := range cfg.Agents {
			names = append(names, a.Name)
		}
		if len(names) == 0 {
			fmt.Fprintf(stderr, "sidekicks ask: %s\n", safetext.Line(askCatalogue.Text(lang, askNoAgents, name, config.DisplayPath(cfg.Path))))
		} else {
			fmt.Fprintf(stderr, "sidekicks ask: %s\n", safetext.Line(askCatalogue.Text(lang, askUnknownAgent, name, config.DisplayPath(cfg.Path), strings.Join(names, ", "))))
		}
		return askExitUsage
	}
	if a := cfg.Agent(name); a.Project {
		fmt.Fprintf(stderr, "sidekicks ask: %s\n", safetext.Line(askCatalogue.Text(lang, askProjectAgent, name, config.DisplayPath(a.Source))))
	}

	var trace *acp.Trace
	if *tracePath != "" {
		if trace = acp.OpenTrace(*tracePath); trace == nil {
			fmt.Fprintf(stderr, "sidekicks ask: %s\n", safetext.Line(askCatalogue.Text(lang, askTraceFailed, *tracePath)))
		}
	} else {
		trace = acp.TraceFromEnv()
	}
	defer trace.Close()

	r, forced := askTurn(cfg, name, prompt, askTurnOptions{lang: lang, yes: *yes, choices: &choices, trace: trace, tracePath: *tracePath, env: env, stdout: stdout, stderr: stderr})
	code, msg := askOutcome(r, forced, lang)
	tracing := ""
	if trace != nil {
		tracing = cmp.Or(*tracePath, os.Getenv(acp.TraceEnv))
	}
	printOutcome(stderr, msg, r.Err != nil && !forced, tracing, lang)
	return code
}

// askConfig loads the configuration and the project's agents file as the application
// does. On an error it prints the problems and returns a nil configuration with the exit
// status.
func askConfig(flagValue string, stderr io.Writer) (*config.Config, i18n.Lang, int) {
	cfg, diags, lang, ok := loadConfig("ask", flagValue, stderr)
	if !ok {
		return nil, lang, askExitError
	}
	if cfg == nil {
		for _, d := range diags {
			if !d.Warning {
				fmt.Fprintln(stderr, d.Text(lang))
			}
		}
		fmt.Fprintln(stderr, config.Summary(lang, diags))
		return nil, lang, askExitError
	}
	if wd, err := os.Getwd(); err == nil {
		project := config.ReadProject(wd, lang)
		switch {
		case project.Diags.HasErrors():
			for _, d := range project.Diags {
				if !d.Warning {
					fmt.Fprintln(stderr, d.Text(lang))
				}
			}
			fmt.Fprintf(stderr, "sidekicks ask: %s\n", askCatalogue.Text(lang, askProjectIgnored))
		case len(project.Agents) > 0 && !project.Trusted:
			// An agents file the user has not allowed adds nothing: a cloned repository
			// must not run its own commands.
			fmt.Fprintf(stderr, "sidekicks ask: %s\n", config.NotAllowedText(lang, len(project.Agents)))
		default:
			for _, d := range config.MergeProject(cfg, project.Agents) {
				fmt.Fprintln(stderr, d.Text(lang))
			}
		}
	}
	return cfg, lang, 0
}

// askTurnOptions are what one turn of ask needs besides the configuration.
type askTurnOptions struct {
	lang    i18n.Lang
	yes     bool
	choices *askChoices
	trace   *acp.Trace
	// tracePath is --trace's file, which no agent may write (as the one the environment
	// names).
	tracePath string
	env       askEnv
	stdout    io.Writer
	stderr    io.Writer
}

// askTurn starts the agent through the supervisor and runs one turn through the
// conversation service, with no history (the application may be running and holds the
// history's lock). It returns how the turn ended, and whether the agent had to be stopped
// because it did not end a cancelled turn. The supervisor is shut down (afterStop
// included) before it returns.
func askTurn(cfg *config.Config, name, prompt string, o askTurnOptions) (chat.TurnResult, bool) {
	out := newAskOutput(o.stdout, o.stderr, o.lang)
	perm := &askPermissions{yes: o.yes, out: out, lang: o.lang}
	wd, _ := os.Getwd()
	runtime.TrackProcesses(nil) // what a killed Sidekicks left is stopped first
	sup := agentstack.NewSupervisor(cfg, agentstack.Options{
		// --yes allows writes, never to Sidekicks' own files.
		OwnFiles: agentstack.WithTrace(agentstack.OwnFiles(cfg.Path, wd), o.tracePath),
		OwnFileRefused: func(agent, path string, kind runtime.OwnKind) {
			out.note(askCatalogue.Text(o.lang, askWriteOwnFile, agent, path, kind.Reason(o.lang)))
		},
		Trace:         o.trace,
		Logs:          runtime.NewLogs(runtime.LogsOptions{}),
		StopGrace:     askStopGrace,
		ClientVersion: o.env.version,
		AllowWrite:    perm.allowWrite,
		SessionOpened: o.choices.opened,
	})
	results := make(chan chat.TurnResult, 1)
	svc := chat.NewService(chat.ServiceOptions{
		Agents:      agentstack.Pool{Sup: sup},
		Permissions: func(chat.Key) chat.Permissions { return perm },
		Lang:        o.lang,
		Describe:    func(err error) string { return agentstack.DescribeError(err, o.lang) },
		WrapHandler: out.wrap,
		TurnEnded:   func(_ chat.Key, r chat.TurnResult) { results <- r },
	})
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), askCancelGrace)
		_ = svc.Shutdown(ctx)
		cancel()
		ctx, cancel = context.WithTimeout(context.Background(), runtime.DefaultAfterStopTimeout+10*time.Second)
		_ = sup.Shutdown(ctx)
		cancel()
	}()

	key := chat.AgentKey(name)
	conv, err := svc.Open(key)
	if err == nil {
		out.watch(conv, name)
		err = svc.Send(key, prompt)
	}
	if err != nil {
		out.finish()
		return chat.TurnResult{Agent: name, Err: err}, false
	}
	r, forced := o.env.wait(results, func() { svc.Cancel(key) }, func() { _ = sup.Stop(name) }, func() {
		out.note(askCatalogue.Text(o.lang, askCancelling))
	})
	out.finish()
	return r, forced
}

// wait waits for the turn's end. The first Ctrl-C cancels the turn; a second one, or the
// end of the grace period, stops the agent.
func (env askEnv) wait(results <-chan chat.TurnResult, cancel, stop, cancelling func()) (chat.TurnResult, bool) {
	var grace <-chan time.Time
	interrupted, forced := false, false
	force := func() {
		if !forced {
			forced = true
			go stop()
		}
	}
	for {
		select {
		case r := <-results:
			return r, forced
		case <-env.interrupts:
			if interrupted {
				force()
				continue
			}
			interrupted = true
			cancelling()
			cancel()
			t := time.NewTimer(env.cancelGrace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			grace = nil
			force()
		}
	}
}

// askOutcome gives the exit status of a turn and the message that explains it.
func askOutcome(r chat.TurnResult, forced bool, lang i18n.Lang) (int, string) {
	switch {
	case forced && (r.Err != nil || r.StopReason == chat.StopCancelled):
		// The agent was stopped: its cancelled turn may have ended either way.
		return askExitError, askCatalogue.Text(lang, askForced)
	case r.Err != nil:
		return askExitError, agentstack.DescribeError(r.Err, lang)
	}
	switch r.StopReason {
	case chat.StopEndTurn:
		return 0, ""
	case chat.StopCancelled:
		return askExitCancelled, askCatalogue.Text(lang, askCancelled)
	case chat.StopRefusal:
		return askExitRefusal, askCatalogue.Text(lang, askRefusal)
	case chat.StopMaxTokens:
		return askExitLimit, askCatalogue.Text(lang, askMaxTokens)
	case chat.StopMaxTurnRequests:
		return askExitLimit, askCatalogue.Text(lang, askMaxTurnRequests)
	}
	return askExitError, askCatalogue.Text(lang, askOtherStop, r.StopReason)
}

// askPermissions answers the agent's permission requests: with --yes an option that allows
// once (one that allows always only when there is none: an "always" answer may make the
// agent write its own settings into the project, as claude-code-acp does), without it an
// option that rejects once (else always); each request and its answer are noted on
// stderr. Without --yes it also refuses every write through fs/write_text_file, whether
// the agent asked permission or not, and notes each refusal on stderr.
type askPermissions struct {
	yes  bool
	out  *askOutput
	lang i18n.Lang
}

func (p *askPermissions) Ask(ctx context.Context, agent string, req chat.PermissionRequest) (string, bool) {
	names := make([]string, len(req.Options))
	for i, o := range req.Options {
		names[i] = o.Name
	}
	p.out.note(askCatalogue.Text(p.lang, askPermissionAsked, agent, req.Title, strings.Join(names, ", ")))
	if ctx.Err() != nil {
		p.out.note(askCatalogue.Text(p.lang, askPermissionCancelled))
		return "", false
	}
	var chosen *chat.PermissionOption
	if p.yes {
		chosen = preferredOption(req.Options, "allow_once", "allow_always")
	}
	if chosen == nil {
		chosen = preferredOption(req.Options, "reject_once", "reject_always")
	}
	switch {
	case chosen == nil:
		p.out.note(askCatalogue.Text(p.lang, askPermissionNoOption))
		return "", false
	case strings.HasPrefix(chosen.Kind, "allow"):
		p.out.note(askCatalogue.Text(p.lang, askPermissionAllowed, chosen.Name, chosen.Kind))
	default:
		p.out.note(askCatalogue.Text(p.lang, askPermissionRefused, chosen.Name))
	}
	return chosen.ID, true
}

// allowWrite is the stack's AllowWrite: without --yes, no write is allowed.
func (p *askPermissions) allowWrite(agent, path string) error {
	if p.yes {
		return nil
	}
	p.out.note(askCatalogue.Text(p.lang, askWriteRefused, agent, path))
	return errors.New("Sidekicks refuses writes: `sidekicks ask` runs without --yes")
}

// preferredOption returns the agent's first option of the first of the kinds it offers:
// kinds are in the order of preference, not the agent's options.
func preferredOption(opts []chat.PermissionOption, kinds ...string) *chat.PermissionOption {
	for _, k := range kinds {
		for i := range opts {
			if opts[i].Kind == k {
				return &opts[i]
			}
		}
	}
	return nil
}
