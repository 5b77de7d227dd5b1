package runtime

import (
	"context"
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// Stop stops an agent and returns once its process has ended (its afterStop may still
// run). A start in progress is abandoned.
func (s *Supervisor) Stop(name string) error {
	return s.stop(name, ReasonStopped)
}

func (s *Supervisor) stop(name, reason string) error {
	s.mu.Lock()
	for {
		a := s.agents[name]
		if a == nil {
			s.mu.Unlock()
			return fmt.Errorf("stopping %q: %w", name, ErrUnknownAgent)
		}
		if r := a.run; r != nil {
			if !r.stopping {
				s.stopAsync(a, r, reason)
			}
			s.mu.Unlock()
			<-r.exited
			return nil
		}
		if st := a.start; st != nil {
			st.cancel()
			s.mu.Unlock()
			<-st.done
			s.mu.Lock()
			continue
		}
		s.mu.Unlock()
		return nil
	}
}

// Restart stops an agent, then starts it again.
func (s *Supervisor) Restart(ctx context.Context, name string) error {
	if err := s.stop(name, ReasonRestarting); err != nil {
		return err
	}
	l, err := s.Acquire(ctx, name)
	if err != nil {
		return err
	}
	l.Release()
	return nil
}

// StopContainer stops the agent, then runs its lifecycle.stop (the container's or the
// sandbox's), its output in the agent's log.
func (s *Supervisor) StopContainer(ctx context.Context, name string) error {
	return s.lifecycle(ctx, name, "stop", func(l config.Lifecycle) []string { return l.Stop })
}

// RemoveContainer stops the agent, then runs its lifecycle.remove.
func (s *Supervisor) RemoveContainer(ctx context.Context, name string) error {
	return s.lifecycle(ctx, name, "remove", func(l config.Lifecycle) []string { return l.Remove })
}

func (s *Supervisor) lifecycle(ctx context.Context, name, what string, pick func(config.Lifecycle) []string) error {
	s.mu.Lock()
	a := s.agents[name]
	var cfg config.Agent
	if a != nil {
		cfg = a.cfg
	}
	s.mu.Unlock()
	if a == nil {
		return fmt.Errorf("%s of %q: %w", what, name, ErrUnknownAgent)
	}
	argv := pick(cfg.Runtime.Lifecycle)
	if len(argv) == 0 {
		return fmt.Errorf("lifecycle.%s of %q: %w", what, name, ErrNoLifecycle)
	}
	if err := s.stop(name, "lifecycle."+what); err != nil {
		return err
	}
	if err := runLifecycle(ctx, cfg, argv, a.log); err != nil {
		a.log.Printf("sidekicks: lifecycle.%s failed: %v", what, err)
		return fmt.Errorf("lifecycle.%s of %q: %w", what, name, err)
	}
	return nil
}

// Shutdown stops every agent and waits for their ends and afterStop commands, or for ctx.
// Acquire fails from then on.
func (s *Supervisor) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	for _, w := range s.queue {
		if a := s.agents[w.name]; a != nil {
			a.waiting--
		}
		w.granted = true
		close(w.ready)
	}
	s.queue = nil
	for _, a := range s.agents {
		if a.start != nil {
			a.start.cancel()
		}
		if r := a.run; r != nil && !r.stopping {
			s.stopAsync(a, r, "Sidekicks is quitting")
		}
	}
	s.emit()
	s.mu.Unlock()
	done := make(chan struct{})
	// Only waits: nothing from outside reaches this goroutine, so it needs no guard.
	go func() {
		s.bg.Wait()
		close(done)
	}()
	select {
	case <-done:
		s.cancel()
		s.logs.Flush()
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for agents to stop: %w", ctx.Err())
	}
}
