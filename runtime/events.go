package runtime

// Subscribe returns a channel of state changes, which first receives the current states,
// and a function that ends the subscription. The channel holds one event; a newer one
// replaces an unread one, so a slow reader never holds the supervisor up.
func (s *Supervisor) Subscribe() (<-chan Event, func()) {
	c := make(chan Event, 1)
	s.mu.Lock()
	s.subs = append(s.subs, c)
	c <- s.eventLocked()
	s.mu.Unlock()
	return c, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, x := range s.subs {
			if x == c {
				s.subs = append(s.subs[:i], s.subs[i+1:]...)
				return
			}
		}
	}
}

// emit sends the current states to every subscriber. Called with s.mu held.
func (s *Supervisor) emit() {
	if len(s.subs) == 0 {
		return
	}
	ev := s.eventLocked()
	for _, c := range s.subs {
		select {
		case c <- ev:
			continue
		default:
		}
		select { // drop the unread older event
		case <-c:
		default:
		}
		select {
		case c <- ev:
		default:
		}
	}
}

func (s *Supervisor) eventLocked() Event {
	occupied, _ := s.count()
	return Event{States: s.statesLocked(), Running: occupied, MaxRunning: s.maxRunning}
}

// States returns every agent's state, in the configuration's order.
func (s *Supervisor) States() []AgentState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statesLocked()
}

func (s *Supervisor) statesLocked() []AgentState {
	out := make([]AgentState, 0, len(s.order))
	for _, name := range s.order {
		if a := s.agents[name]; a != nil && !a.removed {
			out = append(out, a.stateLocked())
		}
	}
	return out
}

// State returns one agent's state (State "" for an unknown agent).
func (s *Supervisor) State(name string) AgentState {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.agents[name]; a != nil && !a.removed {
		return a.stateLocked()
	}
	return AgentState{Name: name}
}

// Running returns how many agents hold a slot, and the limit.
func (s *Supervisor) Running() (running, limit int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	occupied, _ := s.count()
	return occupied, s.maxRunning
}

func (a *agent) stateLocked() AgentState {
	st := AgentState{Name: a.name, State: a.state, Reason: a.reason, Failure: a.failure, LastActivity: a.lastActivity}
	if a.exit != nil {
		e := *a.exit
		st.Exit = &e
	}
	st.StderrTail = append([]string(nil), a.tail...)
	r := a.run
	if r != nil {
		st.Started, st.Pid, st.Turns = r.started, r.proc.Pid, r.leases
	}
	switch {
	case r != nil && r.stopping:
		st.State, st.Reason = Stopping, r.stopReason
	case r != nil && r.ready:
		st.State = Ready
		if r.leases > 0 {
			st.State = Busy
		}
	case a.start != nil || r != nil:
		st.State = Starting
	case a.waiting > 0:
		st.State = Waiting
	}
	return st
}
