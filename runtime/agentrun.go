package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// launch gives an agent a slot and starts it in the background. Called with s.mu held.
func (s *Supervisor) launch(a *agent) {
	ctx, cancel := context.WithCancel(s.ctx)
	st := &startAttempt{done: make(chan struct{}), ctx: ctx, cancel: cancel}
	a.slot = true
	a.start = st
	a.reason, a.failure, a.exit, a.tail = "", nil, nil, nil
	s.bg.Add(1)
	s.opts.Go.Start("supervisor start "+a.name, func() { s.startAgent(a, st) })
}

// startAgent prepares the runtime, starts the process and connects to it.
func (s *Supervisor) startAgent(a *agent, st *startAttempt) {
	defer s.bg.Done()
	s.mu.Lock()
	cfg := a.cfg
	previous := a.afterStop
	s.emit()
	s.mu.Unlock()
	// The previous process's afterStop (unloading a model, say) finishes first.
	if previous != nil {
		select {
		case <-previous:
		case <-st.ctx.Done():
		}
	}
	log := a.log
	err := st.ctx.Err()
	if err == nil {
		err = prepareRuntime(st.ctx, cfg, log, engineTimeouts{query: s.opts.EngineTimeout, lifecycle: s.opts.LifecycleTimeout})
	}
	var proc *Process
	args := agentArgs(cfg) // what runs, and what the log says
	if err == nil {
		if cfg.CommandPath == "" {
			err = fmt.Errorf("command %q: %w", cfg.Command, ErrProgramNotFound)
		} else {
			proc, err = StartProcess(ProcessOptions{
				Path: cfg.CommandPath, Args: args, Dir: cfg.Workspace, Env: envList(cfg.Env),
				MinimalEnv: cfg.Project,
				Log:        log, Grace: s.opts.StopGrace, Name: a.name, Go: s.opts.Go,
			})
		}
	}
	if err != nil {
		s.startFailed(a, st, err)
		return
	}
	runCtx, cancel := context.WithCancel(st.ctx)
	r := &run{proc: proc, cfg: cfg, started: s.clock.Now(), exited: make(chan struct{}), cancel: cancel}
	s.mu.Lock()
	a.run = r
	s.bg.Add(1)
	s.opts.Go.Start("supervisor watch "+a.name, func() { s.watch(a, r, st) })
	s.emit()
	s.mu.Unlock()
	log.Printf("sidekicks: started %s (pid %d)", config.CommandLine(append([]string{cfg.CommandPath}, args...)), proc.Pid)

	var conn Conn
	if s.opts.Connect != nil {
		conn, err = s.opts.Connect(runCtx, cfg, proc)
	}
	if err != nil && conn != nil {
		// A cause of its own (Options.Connect): it wins over the exit that follows.
		s.mu.Lock()
		if a.run == r && !r.stopping {
			r.failReason = fmt.Errorf("connecting: %w", err)
			s.stopAsync(a, r, "the connection failed")
		}
		s.mu.Unlock()
		_ = conn.Close()
		return // watch ends the start attempt
	}
	if err != nil {
		// Most often the agent died while starting: give it a moment to be reaped, so
		// that its exit status and stderr are the reason rather than a closed pipe.
		t := time.NewTimer(s.opts.StopGrace.AfterStdin)
		select {
		case <-proc.Done():
		case <-t.C:
		}
		t.Stop()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if conn != nil {
			_ = conn.Close()
		}
		if a.run == r && !r.stopping && !isDone(proc) {
			r.failReason = fmt.Errorf("connecting: %w", err)
			s.stopAsync(a, r, "the connection failed")
		}
		return // watch ends the start attempt
	}
	if a.run != r || r.stopping {
		if conn != nil {
			_ = conn.Close()
		}
		return
	}
	r.conn = conn
	r.ready = true
	a.lastActivity = s.clock.Now()
	a.start = nil
	close(st.done)
	log.Printf("sidekicks: ready")
	s.armIdle(a, r)
	s.schedule()
	s.emit()
}

// startFailed ends a start attempt that produced no process.
func (s *Supervisor) startFailed(a *agent, st *startAttempt, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a.slot = false
	a.start = nil
	if st.ctx.Err() != nil {
		a.state, a.reason = Stopped, "stopped while starting"
		a.log.Printf("sidekicks: stopped while starting")
	} else {
		a.state, a.reason, a.failure = Error, err.Error(), err
		a.log.Printf("sidekicks: could not start: %v", err)
	}
	st.err = fmt.Errorf("starting agent %q: %w", a.name, err)
	st.cancel()
	close(st.done)
	s.forgetRemoved(a)
	s.schedule()
	s.emit()
}

// watch waits for the end of a process, records why it ended, frees its slot and runs
// its afterStop.
func (s *Supervisor) watch(a *agent, r *run, st *startAttempt) {
	defer s.bg.Done()
	exit := r.proc.Wait()
	r.cancel()
	s.mu.Lock()
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
	if a.run == r {
		a.run = nil
		a.slot = false
	}
	switch {
	case r.failReason != nil:
		a.state, a.reason, a.exit, a.tail = Error, r.failReason.Error(), &exit, r.proc.StderrTail()
		a.failure = r.failReason
		a.log.Printf("sidekicks: stopped (%s): %v", exit, r.failReason)
	case r.stopping:
		a.state, a.reason, a.exit, a.tail = Stopped, r.stopReason, nil, nil
		a.log.Printf("sidekicks: stopped (%s): %s", exit, r.stopReason)
	default:
		a.state, a.exit, a.tail = Error, &exit, r.proc.StderrTail()
		a.reason = "the process ended by itself: " + exit.String()
		if len(a.tail) > 0 {
			a.reason += ": " + strings.Join(a.tail, " / ")
		}
		a.log.Printf("sidekicks: the process ended by itself (%s)", exit)
	}
	if a.start == st {
		a.start = nil
		st.err = fmt.Errorf("starting agent %q: %s", a.name, a.reason)
		if r.failReason != nil {
			st.err = fmt.Errorf("starting agent %q: %w", a.name, r.failReason)
		}
		close(st.done)
	}
	st.cancel()
	afterStop := make(chan struct{})
	a.afterStop = afterStop
	conn := r.conn
	s.forgetRemoved(a)
	s.schedule()
	s.emit()
	s.mu.Unlock()
	if conn != nil {
		_ = conn.Close()
	}
	// A docker exec's client is gone: what it ran in the container may not be. The slot
	// is already free; Stop, and the agent's next start, wait for this.
	stopInside(r.cfg, r.proc, s.opts.StopGrace, s.opts.EngineTimeout, a.log)
	close(r.exited)
	s.runAfterStop(r.cfg, a.log)
	close(afterStop)
}

// forgetRemoved drops an agent removed from the configuration once nothing of it runs.
func (s *Supervisor) forgetRemoved(a *agent) {
	if a.removed && a.run == nil && a.start == nil && s.agents[a.name] == a {
		delete(s.agents, a.name)
	}
}

// stopAsync starts stopping a process. Called with s.mu held.
func (s *Supervisor) stopAsync(a *agent, r *run, reason string) {
	r.stopping = true
	r.stopReason = reason
	if r.failReason == nil {
		r.proc.stopReason.Store(&reason)
	}
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
	a.log.Printf("sidekicks: stopping: %s", reason)
	s.bg.Add(1)
	s.opts.Go.Start("supervisor stop "+a.name, func() {
		defer s.bg.Done()
		r.proc.Stop()
	})
	s.emit()
}

// runAfterStop runs an agent's afterStop in its workspace with its env, bounded by
// AfterStopTimeout, its output in the agent's log.
func (s *Supervisor) runAfterStop(cfg config.Agent, log *AgentLog) {
	if len(cfg.AfterStop) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.AfterStopTimeout)
	defer cancel()
	log.Printf("sidekicks: running afterStop: %s", config.CommandLine(cfg.AfterStop))
	err := runLogged(ctx, cfg.AfterStop, cfg.Workspace, envList(cfg.Env), log, "afterStop: ")
	switch {
	case err == nil:
		log.Printf("sidekicks: afterStop done")
	case errors.Is(err, ErrProgramNotFound):
		log.Printf("sidekicks: warning: afterStop program not found: %s", cfg.AfterStop[0])
	case errors.Is(err, context.DeadlineExceeded):
		log.Printf("sidekicks: afterStop killed after %s", s.opts.AfterStopTimeout)
	default:
		log.Printf("sidekicks: afterStop failed: %v", err)
	}
}

func isDone(p *Process) bool {
	select {
	case <-p.Done():
		return true
	default:
		return false
	}
}
