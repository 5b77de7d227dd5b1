package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/guard"
)

// Errors of the supervisor.
var (
	ErrUnknownAgent = errors.New("unknown agent")
	ErrShuttingDown = errors.New("sidekicks is shutting down")
)

// DefaultAfterStopTimeout bounds an afterStop command.
const DefaultAfterStopTimeout = 30 * time.Second

// Conn is what Options.Connect made of a started process (the ACP connection); the
// supervisor closes it when the process ends.
type Conn interface{ Close() error }

// Options configures a Supervisor.
type Options struct {
	Agents []config.Agent
	// MaxRunning is maxRunningAgents (2 when not positive).
	MaxRunning int
	// IdleAfter is stopIdleAgentsAfter; 0 never stops an idle agent.
	IdleAfter time.Duration
	// Clock drives the idle stop (SystemClock when nil).
	Clock Clock
	// Logs receives every agent's log (kept in memory only when nil).
	Logs *Logs
	// Connect is called once an agent's process has started, to set up ACP over its
	// stdin and stdout; the agent is Ready when it returns. An error stops the process and
	// puts the agent in Error. ctx ends when the process ends. Nil: no connection.
	//
	// Which reason the agent's Error gives depends on the Conn returned with the error.
	// Without one, the connection failed because the process was ending (its output
	// closed): the supervisor waits a moment for it to be reaped, and how it ended is the
	// reason. With one, still open, the connection failed for a cause of its own (a
	// protocol the agent does not speak, no answer in time): the error is the reason,
	// recorded before the supervisor closes the Conn and stops the process, so that the
	// exit the closing causes (an agent ends when its stdin closes) does not mask it.
	Connect func(ctx context.Context, a config.Agent, p *Process) (Conn, error)
	// AfterStopTimeout bounds afterStop commands (DefaultAfterStopTimeout when 0).
	AfterStopTimeout time.Duration
	// EngineTimeout bounds each query of the engine while a container or sandbox agent
	// starts: docker container inspect, docker start, sbx ls (DefaultEngineTimeout when
	// 0). One that does not answer in time fails the start with an *EngineTimeoutError.
	EngineTimeout time.Duration
	// LifecycleTimeout bounds lifecycle.create when a start runs it
	// (DefaultLifecycleTimeout when 0).
	LifecycleTimeout time.Duration
	// StopGrace holds the delays of stopping a process (DefaultStopGrace when zero).
	StopGrace StopGrace
	// Go starts the supervisor's goroutines and those of the processes it starts (see
	// ProcessOptions.Go), and runs its timers' callbacks ("supervisor start <agent>",
	// "supervisor watch <agent>", "supervisor stop <agent>", "supervisor idle timer
	// <agent>"); it is also the default Logs' (see LogsOptions.Go). Nil starts them with a
	// plain go statement; the application passes a guard that restores the terminal and
	// logs a panic.
	Go guard.Go
}

// Supervisor starts agents on demand, keeps them within the limits, and stops them. Its
// methods are safe for concurrent use; only Acquire, Stop, Restart, StopContainer,
// RemoveContainer and Shutdown wait.
type Supervisor struct {
	opts  Options
	clock Clock
	logs  *Logs

	ctx    context.Context // ends at Shutdown
	cancel context.CancelFunc
	bg     sync.WaitGroup // starts, stops, ends of processes and their afterStop

	mu         sync.Mutex
	agents     map[string]*agent
	order      []string
	queue      []*waiter
	subs       []chan Event
	maxRunning int
	idleAfter  time.Duration
	closed     bool
}

// agent is the supervisor's record of one agent.
type agent struct {
	name         string
	cfg          config.Agent // used at the next start
	log          *AgentLog
	state        State // Stopped or Error, when neither starting nor running
	reason       string
	failure      error // why the last start failed, when it did (AgentState.Failure)
	exit         *ExitStatus
	tail         []string
	slot         bool // counts against MaxRunning (starting or running)
	start        *startAttempt
	run          *run
	lastActivity time.Time
	waiting      int           // waiters in the queue
	wanted       int           // Acquire calls in progress
	afterStop    chan struct{} // closed when the last afterStop ended
	removed      bool
	// stopAfterTurns is why StopAfterTurns asked to stop the agent once no turn holds it;
	// "" when it did not.
	stopAfterTurns string
}

// startAttempt is one start of an agent, from its slot to Ready or failure.
type startAttempt struct {
	done   chan struct{}
	err    error
	cancel context.CancelFunc
	ctx    context.Context
	// abandoned is set when the start was cancelled because nobody waited for it any
	// more: an Acquire that came meanwhile starts the agent again rather than fail.
	abandoned bool
}

// run is one process of an agent, from its start until its end has been handled.
type run struct {
	proc       *Process
	cfg        config.Agent
	conn       Conn
	ready      bool
	leases     int
	started    time.Time
	stopping   bool
	stopReason string
	failReason error
	exited     chan struct{}
	idle       Timer
	cancel     context.CancelFunc
}

// waiter is one Acquire waiting for a slot.
type waiter struct {
	name  string
	ready chan struct{}
	// granted is set, and ready closed, when the waiter leaves the queue for any reason
	// other than giving up: its Acquire then looks at the agent again.
	granted bool
}

// New returns a supervisor of the agents; nothing starts until Acquire.
func New(opts Options) *Supervisor {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Logs == nil {
		opts.Logs = NewLogs(LogsOptions{Now: opts.Clock.Now, Go: opts.Go})
	}
	if opts.AfterStopTimeout <= 0 {
		opts.AfterStopTimeout = DefaultAfterStopTimeout
	}
	if opts.EngineTimeout <= 0 {
		opts.EngineTimeout = DefaultEngineTimeout
	}
	if opts.LifecycleTimeout <= 0 {
		opts.LifecycleTimeout = DefaultLifecycleTimeout
	}
	opts.StopGrace = opts.StopGrace.orDefault()
	s := &Supervisor{opts: opts, clock: opts.Clock, logs: opts.Logs, agents: map[string]*agent{}}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.maxRunning, s.idleAfter = limits(opts.MaxRunning, opts.IdleAfter)
	s.SetAgents(opts.Agents)
	return s
}

func limits(maxRunning int, idle time.Duration) (int, time.Duration) {
	if maxRunning <= 0 {
		maxRunning = 2
	}
	if idle < 0 {
		idle = 0
	}
	return maxRunning, idle
}

// Logs returns the agents' logs.
func (s *Supervisor) Logs() *Logs { return s.logs }

// SetLimits changes maxRunningAgents and stopIdleAgentsAfter (on a reload). A lower limit
// does not stop running agents; it is applied as they stop.
func (s *Supervisor) SetLimits(maxRunning int, idleAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxRunning, s.idleAfter = limits(maxRunning, idleAfter)
	for _, a := range s.agents {
		if r := a.run; r != nil && r.ready && !r.stopping && r.leases == 0 {
			s.armIdle(a, r)
		}
	}
	s.schedule()
	s.emit()
}

// SetAgents replaces the configuration's agents (on a reload): a changed agent takes its
// new configuration at its next start; a removed one is stopped.
func (s *Supervisor) SetAgents(agents []config.Agent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := map[string]bool{}
	s.order = s.order[:0]
	for _, cfg := range agents {
		if keep[cfg.Name] {
			continue
		}
		keep[cfg.Name] = true
		s.order = append(s.order, cfg.Name)
		a := s.agents[cfg.Name]
		if a == nil {
			a = &agent{name: cfg.Name, state: Stopped, log: s.logs.Agent(cfg.Name)}
			s.agents[cfg.Name] = a
		}
		a.cfg = cfg
		a.removed = false
	}
	for name, a := range s.agents {
		if keep[name] {
			continue
		}
		a.removed = true
		if a.start != nil {
			a.start.cancel()
		}
		if r := a.run; r != nil && !r.stopping {
			s.stopAsync(a, r, "removed from the configuration")
		}
		if a.run == nil && a.start == nil {
			delete(s.agents, name)
		}
	}
	// Waiters for removed agents give up (their Acquire sees the agent gone).
	q := s.queue[:0]
	for _, w := range s.queue {
		if a := s.agents[w.name]; a == nil || a.removed {
			if a != nil {
				a.waiting--
			}
			w.granted = true // let go: its Acquire looks again and finds the agent gone
			close(w.ready)
			continue
		}
		q = append(q, w)
	}
	s.queue = q
	s.schedule()
	s.emit()
}

// Lease is a turn in progress with an agent: the agent stays running and Busy while any
// lease on it is held.
type Lease struct {
	s    *Supervisor
	a    *agent
	r    *run
	once sync.Once
}

// Conn returns the connection Options.Connect made.
func (l *Lease) Conn() Conn { return l.r.conn }

// Process returns the agent's process.
func (l *Lease) Process() *Process { return l.r.proc }

// Release ends the turn; the agent's activity time is updated. Calling it again does
// nothing.
func (l *Lease) Release() {
	l.once.Do(func() {
		s := l.s
		s.mu.Lock()
		defer s.mu.Unlock()
		l.r.leases--
		l.a.lastActivity = s.clock.Now()
		if l.a.run == l.r && l.r.leases == 0 && !l.r.stopping {
			s.armIdle(l.a, l.r)
			s.stopIfFree(l.a)
		}
		s.schedule() // an agent that is no longer busy may make room
		s.emit()
	})
}

// Acquire starts a turn with an agent: it starts the agent if needed (making room, or
// waiting in order for a slot, when maxRunningAgents are running) and returns once the
// agent is ready. Cancelling ctx gives up the wait; when no other Acquire waits for the
// agent, its start in progress is abandoned too (see abandonStart), and its slot freed.
// With ctx already done (its window closed before it started the agent) it does nothing.
func (s *Supervisor) Acquire(ctx context.Context, name string) (*Lease, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	var w *waiter
	// wanted marks the agent as about to get a turn, so that it is not stopped to make
	// room for someone else between its start and this lease.
	var wanted *agent
	defer func() {
		s.mu.Lock()
		if wanted != nil {
			wanted.wanted--
			s.stopIfFree(wanted)
		}
		s.mu.Unlock()
	}()
	for {
		if s.closed {
			s.mu.Unlock()
			return nil, ErrShuttingDown
		}
		a := s.agents[name]
		if a == nil || a.removed {
			s.mu.Unlock()
			return nil, fmt.Errorf("%q: %w", name, ErrUnknownAgent)
		}
		if wanted != a {
			if wanted != nil {
				wanted.wanted--
			}
			a.wanted++
			wanted = a
		}
		if r := a.run; r != nil && r.ready && !r.stopping {
			if w != nil && !w.granted {
				s.dequeue(w)
			}
			r.leases++
			a.lastActivity = s.clock.Now()
			if r.idle != nil {
				r.idle.Stop()
				r.idle = nil
			}
			s.emit()
			s.mu.Unlock()
			return &Lease{s: s, a: a, r: r}, nil
		}
		var wait <-chan struct{}
		var st *startAttempt
		switch {
		case a.run != nil && a.run.stopping:
			wait = a.run.exited
		case a.start != nil:
			st = a.start
			wait = st.done
		default:
			if w == nil {
				w = &waiter{name: name, ready: make(chan struct{})}
				s.queue = append(s.queue, w)
				a.waiting++
				s.schedule()
				s.emit()
			}
			if w.granted {
				w = nil
				continue
			}
			wait = w.ready
		}
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			s.mu.Lock()
			if w != nil && !w.granted {
				s.dequeue(w)
			}
			if wanted != nil {
				wanted.wanted--
				s.abandonStart(wanted)
				wanted = nil
			}
			s.emit()
			s.mu.Unlock()
			return nil, ctx.Err()
		case <-wait:
		}
		s.mu.Lock()
		if st != nil && st.err != nil && !st.abandoned {
			s.mu.Unlock()
			return nil, st.err
		}
		if w != nil && w.granted {
			w = nil
		}
	}
}
