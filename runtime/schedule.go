package runtime

import "fmt"

// dequeue removes a waiter that gave up.
func (s *Supervisor) dequeue(w *waiter) {
	for i, x := range s.queue {
		if x == w {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			if a := s.agents[w.name]; a != nil {
				a.waiting--
			}
			return
		}
	}
}

// abandonStart cancels the start of an agent that no Acquire waits for any more: the last
// turn that wanted it gave up (Esc, its window closed), and a start that may never end
// (an engine that does not answer) must not keep its slot. The commands of the start are
// stopped, a process already started is stopped, and the agent ends Stopped. Called with
// s.mu held.
func (s *Supervisor) abandonStart(a *agent) {
	st := a.start
	if st == nil || st.abandoned || a.wanted > 0 {
		return
	}
	st.abandoned = true
	a.log.Printf("sidekicks: start cancelled: nothing waits for it any more")
	if r := a.run; r != nil && !r.stopping {
		s.stopAsync(a, r, "start cancelled")
	}
	st.cancel()
}

// grant lets a waiter go on.
func (s *Supervisor) grant(w *waiter) {
	for i, x := range s.queue {
		if x == w {
			s.queue = append(s.queue[:i], s.queue[i+1:]...)
			break
		}
	}
	if a := s.agents[w.name]; a != nil {
		a.waiting--
	}
	w.granted = true
	close(w.ready)
}

// schedule gives free slots to waiters in order, and makes room by stopping the least
// recently used agent with no turn in progress when none is free. Called with s.mu held
// whenever a slot may have freed or a waiter arrived.
func (s *Supervisor) schedule() {
	for len(s.queue) > 0 && !s.closed {
		w := s.queue[0]
		a := s.agents[w.name]
		if a.slot || a.run != nil {
			s.grant(w) // started by another request, or stopping: Acquire follows it
			continue
		}
		occupied, stopping := s.count()
		if occupied < s.maxRunning {
			s.launch(a)
			for _, x := range append([]*waiter(nil), s.queue...) {
				if x.name == a.name {
					s.grant(x)
				}
			}
			continue
		}
		if occupied-stopping >= s.maxRunning {
			if v := s.leastRecentlyUsed(); v != nil {
				s.stopAsync(v, v.run, "to make room for "+a.name)
			}
		}
		return
	}
}

// count returns how many agents hold a slot, and how many of them are stopping.
func (s *Supervisor) count() (occupied, stopping int) {
	for _, a := range s.agents {
		if a.slot {
			occupied++
			if a.run != nil && a.run.stopping {
				stopping++
			}
		}
	}
	return occupied, stopping
}

// leastRecentlyUsed is the running agent with no turn in progress whose last activity is
// the oldest, or nil when every running agent is busy.
func (s *Supervisor) leastRecentlyUsed() *agent {
	var best *agent
	for _, a := range s.agents {
		r := a.run
		if r == nil || !r.ready || r.stopping || r.leases > 0 || a.wanted > 0 {
			continue
		}
		if best == nil || a.lastActivity.Before(best.lastActivity) {
			best = a
		}
	}
	return best
}

// armIdle (re)starts the idle timer of a running agent with no turn in progress.
func (s *Supervisor) armIdle(a *agent, r *run) {
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
	if s.idleAfter <= 0 {
		return
	}
	r.idle = s.clock.AfterFunc(s.idleAfter, s.idleCallback(a, r))
}

// idleCallback is the idle timer's callback: it runs idleFired under the guard, and
// returns once idleFired has (a fake clock in tests runs the callback before its Advance
// returns, and still does).
func (s *Supervisor) idleCallback(a *agent, r *run) func() {
	return func() {
		s.opts.Go.Call("supervisor idle timer "+a.name, func() { s.idleFired(a, r) })
	}
}

// idleFired stops an agent idle for long enough, or waits again if it was used meanwhile.
func (s *Supervisor) idleFired(a *agent, r *run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a.run != r || !r.ready || r.stopping || r.leases > 0 || s.idleAfter <= 0 {
		return
	}
	if idle := s.clock.Now().Sub(a.lastActivity); idle < s.idleAfter {
		r.idle = s.clock.AfterFunc(s.idleAfter-idle, s.idleCallback(a, r))
		return
	}
	s.stopAsync(a, r, fmt.Sprintf("idle for %s", s.idleAfter))
}
