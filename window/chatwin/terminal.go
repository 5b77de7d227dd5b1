package chatwin

import (
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// killKey kills the commands the window's agents run through Sidekicks' terminal (shown in
// their tool calls); the turn goes on, the agent is told how the command ended.
var killKey = window.Alt('k')

// commandKiller is a Service that kills the agents' terminal commands (*chat.Service is
// one).
type commandKiller interface {
	KillCommands(k chat.Key) int
}

// killCommands kills the running commands of the window's conversation, off the screen's
// goroutine (a kill waits for the command to be gone) and apart from the window's other
// calls, which it must not hold up.
func (w *Widget) killCommands() {
	if kc, ok := w.svc.(commandKiller); ok {
		w.app.Go(func() { kc.KillCommands(w.key) })
	}
}
