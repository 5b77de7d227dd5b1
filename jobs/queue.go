// Package jobs owns the ordered job queue that the application and its windows hand slow
// work to (the store, a workspace, chroma): jobs run one at a time, in the order given, on
// a goroutine of the queue's own that lives while there is work, and an idle barrier tells
// a caller when what it queued has run, so that tests wait for it instead of polling.
package jobs

import "sync"

// Options configure a Queue.
type Options struct {
	// Name names the queue's goroutine: Go receives it, for a panic report to say what was
	// running.
	Name string
	// Go starts fn on a new goroutine: a panic guard, the screen's App.Go. It must return
	// without waiting for fn. Nil starts it with a plain go statement.
	Go func(name string, fn func())
}

// Queue runs jobs one at a time, in the order Do was given them, on a goroutine of its own:
// started (through Options.Go) by the first job given while none runs, ended when no job
// is left. Its methods may be called from any goroutine, and from a job (but Close). The
// zero Queue is ready to use, with a plain go statement as starter.
//
// A job that panics counts as run: the jobs after it run on a new goroutine, started the
// same way, while the panic goes on up to the starter's guard.
type Queue struct {
	opts Options

	mu      sync.Mutex
	jobs    []func() // waiting, oldest first
	running bool     // a goroutine runs the jobs, or is being started
	closed  bool
	given   uint64   // jobs taken by Do so far
	ran     uint64   // of them, jobs that have run (or panicked)
	waiters []waiter // Idle's, oldest first: their marks only grow
}

// waiter is a channel of Idle, closed once ran reaches mark.
type waiter struct {
	mark uint64
	ch   chan struct{}
}

// idle is the channel Idle returns when nothing is left to run.
var idle = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

// New returns an empty queue; no goroutine runs until a job is given.
func New(opts Options) *Queue { return &Queue{opts: opts} }

// Do queues job, to run after every job given before it. It never blocks: the queue has no
// bound, and the goroutine that runs the jobs is started when none runs. After Close, job
// is dropped.
func (q *Queue) Do(job func()) {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	q.jobs = append(q.jobs, job)
	q.given++
	start := !q.running
	q.running = true
	q.mu.Unlock()
	if start {
		q.start()
	}
}

// Idle returns a channel closed once every job given before the call has run: at once when
// there is none. Jobs given after the call do not hold it back.
func (q *Queue) Idle() <-chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ran >= q.given {
		return idle
	}
	ch := make(chan struct{})
	q.waiters = append(q.waiters, waiter{mark: q.given, ch: ch})
	return ch
}

// Close stops taking jobs (Do drops them from now on, even those the jobs still queued
// give) and returns once the jobs given before have run. It must not be called from a job,
// which would wait for itself. Calling it again waits the same way.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	<-q.Idle()
}

func (q *Queue) start() {
	if q.opts.Go != nil {
		q.opts.Go(q.opts.Name, q.run)
		return
	}
	go q.run()
}

// run runs the jobs until none is left.
func (q *Queue) run() {
	for {
		q.mu.Lock()
		if len(q.jobs) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		job := q.jobs[0]
		q.jobs[0] = nil
		q.jobs = q.jobs[1:]
		q.mu.Unlock()
		q.runOne(job)
	}
}

// runOne runs a job and counts it as run, even when it panics (or calls runtime.Goexit):
// then this goroutine ends with the panic, and the jobs after it go on on a new one.
func (q *Queue) runOne(job func()) {
	returned := false
	defer func() {
		q.mu.Lock()
		q.ran++
		q.wakeLocked()
		restart := false
		if !returned {
			restart = len(q.jobs) > 0
			q.running = restart
		}
		q.mu.Unlock()
		if restart {
			q.start()
		}
	}()
	job()
	returned = true
}

// wakeLocked closes the channels of the waiters whose jobs have all run. The caller holds
// the lock.
func (q *Queue) wakeLocked() {
	n := 0
	for _, w := range q.waiters {
		if w.mark > q.ran {
			break
		}
		close(w.ch)
		n++
	}
	if n > 0 {
		clear(q.waiters[:n])
		q.waiters = q.waiters[n:]
	}
}
