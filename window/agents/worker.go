package agents

import (
	"sync"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// worker runs jobs one after the other on a goroutine of its own, started when there is
// work and ended when there is none: a window's workspace operations (each may be a docker
// exec) keep their order, and the screen's goroutine never waits for one. Queueing never
// blocks.
type worker struct {
	app     *window.App
	mu      sync.Mutex
	jobs    []func()
	running bool
}

func newWorker(app *window.App) *worker { return &worker{app: app} }

// do queues a job.
func (w *worker) do(job func()) {
	w.mu.Lock()
	w.jobs = append(w.jobs, job)
	start := !w.running
	w.running = true
	w.mu.Unlock()
	if start {
		w.app.Go(w.run)
	}
}

func (w *worker) run() {
	for {
		w.mu.Lock()
		if len(w.jobs) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		job := w.jobs[0]
		w.jobs[0] = nil
		w.jobs = w.jobs[1:]
		w.mu.Unlock()
		job()
	}
}

// retitle changes a window's title when it differs (the language changed, a file was
// modified). Called while a frame is drawn, the frame already has the old title: the empty
// Post wakes the loop for one more.
func retitle(app *window.App, w *window.Window, title string) {
	if w == nil || w.Number() == 0 || w.Title() == title {
		return
	}
	w.SetTitle(title)
	app.Post(func() {})
}
