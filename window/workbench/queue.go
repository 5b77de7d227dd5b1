package workbench

import (
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// newQueue returns a window's queue of slow operations (each may be a docker exec): they
// keep their order, and run on a goroutine the screen guards (App.Go) that lives while
// there are operations to run, so that the screen's goroutine never waits for one.
func newQueue(app *window.App, name string) *jobs.Queue {
	return jobs.New(jobs.Options{Name: name, Go: func(_ string, fn func()) { app.Go(fn) }})
}
