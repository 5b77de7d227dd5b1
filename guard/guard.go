// Package guard owns how the packages outside the screen start their long-lived
// goroutines: the Go type, a starter they take as an option, so that the application can
// run each of those goroutines under a guard that restores the terminal and logs a panic
// with its stack. It holds no terminal code: the application supplies the guard
// (window.App's), and a package given none starts its goroutines with a plain go
// statement.
package guard

// Go starts fn on a new goroutine. Name says what the goroutine is ("acp reader alice",
// "store writer"), for the report of a panic. A guard recovers a panic of fn, restores
// the terminal and logs the value with the stack; whether the process then goes on is
// the guard's choice. The nil Go is Plain.
//
// A plain func(name string, fn func()) is assignable to a Go, and a Go to it.
type Go func(name string, fn func())

// Plain starts fn with a bare go statement: a panic of fn ends the process, as any
// unrecovered panic does.
func Plain(name string, fn func()) { go fn() }

// Start starts fn on a new goroutine through g, or through Plain when g is nil.
func (g Go) Start(name string, fn func()) {
	if g == nil {
		Plain(name, fn)
		return
	}
	g(name, fn)
}

// Call runs fn on a goroutine started through g (see Start) and returns once fn has
// returned or panicked. It is for work that runs on a goroutine its package did not start
// (a timer's callback), so that this work too runs under the guard.
func (g Go) Call(name string, fn func()) {
	done := make(chan struct{})
	g.Start(name, func() {
		defer close(done)
		fn()
	})
	<-done
}
