package runtime

// The reasons the supervisor records when it stops a process on purpose: Process.StopReason
// returns them, so that a turn cut short by one is told apart from a crash.
const (
	ReasonStopped      = "stopped"
	ReasonRestarting   = "restarting"
	ReasonWindowClosed = "its window was closed"
)

// StopAfterTurns stops an agent once no turn holds it: at once when none does, else when
// the last turn in progress, or waiting for it, has ended (its window was closed while a
// channel's turn was using it). A start that no turn waits for is given up. It does not
// wait; KeepRunning, or the end of the process, forgets it.
func (s *Supervisor) StopAfterTurns(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.agents[name]
	if a == nil || a.run == nil && a.start == nil && a.wanted == 0 {
		return // nothing runs, starts, or is about to
	}
	a.stopAfterTurns = true
	s.stopIfFree(a)
}

// KeepRunning forgets a StopAfterTurns not yet carried out (the agent's window opened again).
func (s *Supervisor) KeepRunning(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.agents[name]; a != nil {
		a.stopAfterTurns = false
	}
}

// stopIfFree carries out a pending StopAfterTurns when no turn holds the agent and none is
// on its way to it. Called with s.mu held, each time a lease ends, an Acquire leaves, or a
// start ends.
func (s *Supervisor) stopIfFree(a *agent) {
	if !a.stopAfterTurns || a.wanted > 0 {
		return
	}
	r := a.run
	switch {
	case r != nil && r.stopping:
		a.stopAfterTurns = false
	case r != nil && r.ready:
		if r.leases > 0 {
			return
		}
		a.stopAfterTurns = false
		s.stopAsync(a, r, ReasonWindowClosed)
	case a.start != nil:
		a.stopAfterTurns = false
		a.start.cancel() // the start ends as "stopped while starting"
	default:
		a.stopAfterTurns = false
	}
}

// StopReason says why the supervisor stopped the process on purpose (ReasonStopped,
// ReasonRestarting, ReasonWindowClosed, an idle stop, a reload…); "" while it runs, or
// when it ended by itself or because it failed to connect.
func (p *Process) StopReason() string {
	if r := p.stopReason.Load(); r != nil {
		return *r
	}
	return ""
}
