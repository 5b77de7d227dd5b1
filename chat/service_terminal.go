package chat

// terminalKiller is a session whose agent's terminal commands can be killed (acp.Session).
type terminalKiller interface {
	KillTerminals() int
}

// KillCommands kills the commands that the agents of the conversation run through the
// client's terminals and that are still running (the window's Alt-K): each agent is told
// that its command ended by a signal, and goes on with its turn. It returns how many were
// killed, once they are gone. It may wait a few seconds: call it off the screen's goroutine.
func (s *Service) KillCommands(k Key) int {
	s.mu.Lock()
	var killers []terminalKiller
	if cs := s.convs[k]; cs != nil {
		for _, as := range cs.sessions {
			if tk, ok := as.sess.(terminalKiller); ok {
				killers = append(killers, tk)
			}
		}
	}
	s.mu.Unlock()
	n := 0
	for _, tk := range killers {
		n += tk.KillTerminals()
	}
	return n
}
