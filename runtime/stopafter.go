package runtime

// The reasons the supervisor records when it stops a process on purpose: Process.StopReason
// returns them, so that a turn cut short by one is told apart from a crash.
const (
	ReasonStopped      = "stopped"
	ReasonRestarting   = "restarting"
	ReasonWindowClosed = "its window was closed"
	ReasonNewSecrets   = "its secrets changed: its next start passes them"
)

// StopAfterTurns stops an agent once no turn holds it, for reason: at once when none does,
// else when the last turn in progress, or waiting for it, has ended (its window was closed
// while a channel's turn was using it: ReasonWindowClosed; its secrets changed:
// ReasonNewSecrets). A start that no turn waits for is given up. It does not wait; the end
// of the process forgets it, and KeepRunning forgets a stop for ReasonWindowClosed. A
// pending stop for another reason is kept when the window closes too: the agent must
// start again all the same.
func (s *Supervisor) StopAfterTurns(name, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.agents[name]
	if a == nil || a.run == nil && a.start == nil && a.wanted == 0 {
		return // nothing runs, starts, or is about to
	}
	if a.stopAfterTurns == "" || a.stopAfterTurns == ReasonWindowClosed {
		a.stopAfterTurns = reason
	}
	s.stopIfFree(a)
}

// KeepRunning forgets a StopAfterTurns of the agent's closed window not yet carried out
// (the window opened again). A stop for another reason (new secrets) stays.
func (s *Supervisor) KeepRunning(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.agents[name]; a != nil && a.stopAfterTurns == ReasonWindowClosed {
		a.stopAfterTurns = ""
	}
}

// stopIfFree carries out a pending StopAfterTurns when no turn holds the agent and none is
// on its way to it. Called with s.mu held, each time a lease ends, an Acquire leaves, or a
// start ends.
func (s *Supervisor) stopIfFree(a *agent) {
	reason := a.stopAfterTurns
	if reason == "" || a.wanted > 0 {
		return
	}
	r := a.run
	if r != nil && r.ready && !r.stopping && r.leases > 0 {
		return
	}
	a.stopAfterTurns = ""
	switch {
	case r != nil && r.stopping:
	case r != nil && r.ready:
		s.stopAsync(a, r, reason)
	case a.start != nil:
		a.start.cancel() // the start ends as "stopped while starting"
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
