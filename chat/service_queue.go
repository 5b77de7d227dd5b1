package chat

// Queued returns the messages of the conversation waiting to be sent, oldest first.
func (s *Service) Queued(k Key) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.convs[k]
	if cs == nil {
		return nil
	}
	out := make([]string, len(cs.queue))
	for i, m := range cs.queue {
		out[i] = m.text
	}
	return out
}

// Unqueue withdraws the i-th waiting message (0 is the oldest) and returns its text, so
// that the screen can put it back in the input; false when there is none.
func (s *Service) Unqueue(k Key, i int) (string, bool) {
	s.mu.Lock()
	cs := s.convs[k]
	if cs == nil || i < 0 || i >= len(cs.queue) {
		s.mu.Unlock()
		return "", false
	}
	text := cs.queue[i].text
	cs.queue = append(cs.queue[:i:i], cs.queue[i+1:]...)
	s.mu.Unlock()
	cs.conv.touch()
	s.dispatch(cs) // the message withdrawn may have held later ones up
	return text, true
}

// ClearQueue withdraws every waiting message of the conversation.
func (s *Service) ClearQueue(k Key) {
	s.mu.Lock()
	cs := s.convs[k]
	changed := cs != nil && len(cs.queue) > 0
	if changed {
		cs.queue = nil
	}
	s.mu.Unlock()
	if changed {
		cs.conv.touch()
	}
}

// Busy reports whether a turn of the conversation is in progress (waiting for its agent,
// opening its session, or with the agent).
func (s *Service) Busy(k Key) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.convs[k]
	return cs != nil && len(cs.turns) > 0
}

// Turns returns the turns of the conversation in progress, by agent name.
func (s *Service) Turns(k Key) []TurnInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs := s.convs[k]
	if cs == nil {
		return nil
	}
	out := make([]TurnInfo, 0, len(cs.turns))
	for _, t := range cs.turns {
		out = append(out, TurnInfo{Agent: t.agent, Turn: t.num, Phase: t.phase, Started: t.started})
	}
	sortTurns(out)
	return out
}
