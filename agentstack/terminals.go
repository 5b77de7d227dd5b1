package agentstack

import (
	"context"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/guard"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// terminalRunner runs an agent's terminal commands where the agent runs (acp's
// TerminalRunner over the runtime's AgentCommand).
type terminalRunner struct {
	agent config.Agent
	log   *runtime.AgentLog
	goes  guard.Go
}

func (r terminalRunner) Start(_ context.Context, cmd acp.TerminalCommand) (acp.RunningCommand, error) {
	return runtime.StartAgentCommand(r.agent, runtime.TerminalCommandSpec{
		Command: cmd.Command, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Cwd,
	}, r.log, r.goes)
}

// terminals is the runner of agent a's terminals.
func (o Options) terminals(a config.Agent) terminalRunner {
	r := terminalRunner{agent: a, goes: o.Go}
	if o.Logs != nil {
		r.log = o.Logs.Agent(a.Name)
	}
	return r
}

// terminalWatcher gives a conversation's handler the output of the session's terminals, as
// chat knows it.
type terminalWatcher struct{ h chat.SessionHandler }

func (w terminalWatcher) TerminalOutput(id string, s acp.TerminalSnapshot) {
	chat.ForwardTerminal(w.h, id, chat.TerminalOutput{
		Output: s.Output, Truncated: s.Truncated, Exited: s.Exited, ExitCode: s.ExitCode, Signal: s.Signal, Killed: s.Killed,
	})
}
