package app

import "sync"

// worker runs the application's slow work — the history, the agents' supervisor, loading
// the configuration — off the screen's goroutine, one job at a time in the order given,
// so that two reloads, or a rename then a delete, happen in the order the user asked.
// Jobs hand their results back with App.Post. Adding a job never waits.
type worker struct {
	mu      sync.Mutex
	jobs    []func()
	closed  bool
	wake    chan struct{}
	stopped chan struct{}
}

func newWorker() *worker {
	return &worker{wake: make(chan struct{}, 1), stopped: make(chan struct{})}
}

// do queues a job; after close it is dropped.
func (w *worker) do(job func()) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.jobs = append(w.jobs, job)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// run runs the jobs until close, then the ones still queued. Start it once, on its own
// goroutine (App.Go, so that a panic in a job restores the terminal).
func (w *worker) run() {
	defer close(w.stopped)
	for {
		w.mu.Lock()
		jobs, closed := w.jobs, w.closed
		w.jobs = nil
		w.mu.Unlock()
		for _, job := range jobs {
			job()
		}
		if closed && len(jobs) == 0 {
			return
		}
		if len(jobs) == 0 {
			<-w.wake
		}
	}
}

// close stops taking jobs and waits until the queued ones have run.
func (w *worker) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	<-w.stopped
}
