package agentstack

import (
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// Commands remembers the commands each agent announced last, in any of its sessions.
// A channel's / list shows what each member announced in the channel's own session; a
// member not yet addressed there has none, and the list shows what it announced elsewhere
// (its own window, another channel) instead, so that /alice:… completes before alice's
// first turn in the channel.
type Commands struct {
	mu sync.Mutex
	m  map[string][]chat.Command
}

func NewCommands() *Commands { return &Commands{m: make(map[string][]chat.Command)} }

// Get returns what agent announced last, nil when nothing is known.
func (c *Commands) Get(agent string) []chat.Command {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[agent]
}

// wrap is the service's WrapHandler: it passes everything on, keeping the commands.
func (c *Commands) wrap(_ chat.Key, agent string, h chat.SessionHandler) chat.SessionHandler {
	return &commandsTap{SessionHandler: h, agent: agent, known: c}
}

// commandsTap passes a session's updates on (Chunk and RequestPermission as they are),
// noting the commands announced.
type commandsTap struct {
	chat.SessionHandler
	agent string
	known *Commands
}

func (t *commandsTap) Update(u sdk.SessionUpdate) {
	if ac := u.AvailableCommandsUpdate; ac != nil {
		cmds := make([]chat.Command, 0, min(len(ac.AvailableCommands), chat.MaxCommands))
		for _, in := range ac.AvailableCommands {
			if len(cmds) == chat.MaxCommands {
				break
			}
			cmd := chat.Command{Name: safetext.Line(in.Name), Description: safetext.Line(in.Description)}
			if cmd.Name == "" {
				continue
			}
			if in.Input != nil {
				cmd.HasInput = true
				if in.Input.Unstructured != nil {
					cmd.InputHint = safetext.Line(in.Input.Unstructured.Hint)
				}
			}
			cmds = append(cmds, cmd)
		}
		t.known.mu.Lock()
		t.known.m[t.agent] = cmds
		t.known.mu.Unlock()
	}
	t.SessionHandler.Update(u)
}

// TerminalOutput passes a terminal's output on.
func (t *commandsTap) TerminalOutput(id string, out chat.TerminalOutput) {
	chat.ForwardTerminal(t.SessionHandler, id, out)
}
