package jobs_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/jobs"
)

// deadline bounds every wait of these tests; reaching it is a failure.
const deadline = 10 * time.Second

// wait fails the test unless ch is closed (or receives) before the deadline.
func wait(t *testing.T, what string, ch <-chan struct{}) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(deadline):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// ready reports whether ch is closed (or holds a value) now.
func ready(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func TestJobsRunInOrder(t *testing.T) {
	q := jobs.New(jobs.Options{})
	var got []int
	for i := range 100 {
		q.Do(func() { got = append(got, i) }) // one at a time: no lock needed
	}
	wait(t, "the jobs", q.Idle())
	if len(got) != 100 {
		t.Fatalf("%d jobs ran, want 100", len(got))
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("job %d ran as number %d", v, i)
		}
	}
}

// Jobs given from several goroutines never run two at a time, and each runs once.
func TestOneJobAtATime(t *testing.T) {
	q := jobs.New(jobs.Options{})
	var running, most, ran atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				q.Do(func() {
					n := running.Add(1)
					if n > most.Load() {
						most.Store(n)
					}
					ran.Add(1)
					running.Add(-1)
				})
			}
		})
	}
	wg.Wait()
	wait(t, "the jobs", q.Idle())
	if ran.Load() != 8*200 {
		t.Errorf("%d jobs ran, want %d", ran.Load(), 8*200)
	}
	if most.Load() != 1 {
		t.Errorf("%d jobs ran at the same time", most.Load())
	}
}

// Do returns at once while a job holds the queue, however many jobs wait.
func TestDoNeverBlocks(t *testing.T) {
	q := jobs.New(jobs.Options{})
	release := make(chan struct{})
	q.Do(func() { <-release })
	given := make(chan struct{})
	go func() {
		for range 10000 {
			q.Do(func() {})
		}
		close(given)
	}()
	wait(t, "Do to return while a job holds the queue", given)
	close(release)
	wait(t, "the jobs", q.Idle())
}

// Idle waits for the jobs given before it, not for those given after.
func TestIdleBarrier(t *testing.T) {
	q := jobs.New(jobs.Options{})
	wait(t, "an empty queue's barrier", q.Idle())

	first, second := make(chan struct{}), make(chan struct{})
	var firstDone atomic.Bool
	q.Do(func() { <-first; firstDone.Store(true) })
	barrier := q.Idle()
	q.Do(func() { <-second })
	if ready(barrier) {
		t.Fatal("the barrier is open while a job given before it has not run")
	}
	close(first)
	wait(t, "the barrier once the job before it ran", barrier)
	if !firstDone.Load() {
		t.Error("the barrier opened before the job given before it had returned")
	}
	later := q.Idle()
	if ready(later) {
		t.Error("a barrier opened while the job given before it still waits")
	}
	close(second)
	wait(t, "the second barrier", later)
}

// Close runs what is queued, waits for it, and drops what comes after.
func TestCloseRunsQueuedJobsThenDrops(t *testing.T) {
	q := jobs.New(jobs.Options{})
	release := make(chan struct{})
	var ran atomic.Int64
	q.Do(func() { <-release; ran.Add(1) })
	for range 10 {
		q.Do(func() { ran.Add(1) })
	}
	closed := make(chan struct{})
	go func() { q.Close(); close(closed) }()
	close(release)
	wait(t, "Close to return", closed)
	if n := ran.Load(); n != 11 {
		t.Errorf("Close returned after %d jobs of 11", n)
	}
	q.Do(func() { t.Error("a job given after Close ran") })
	wait(t, "a second Close", func() <-chan struct{} {
		ch := make(chan struct{})
		go func() { q.Close(); close(ch) }()
		return ch
	}())
	wait(t, "the barrier after Close", q.Idle())
}

// Close drops the jobs that the jobs still queued give, so that it does not wait for a job
// that keeps giving more.
func TestCloseDropsJobsGivenByJobs(t *testing.T) {
	q := jobs.New(jobs.Options{})
	release := make(chan struct{})
	var again func()
	again = func() { q.Do(again) }
	q.Do(func() { <-release })
	q.Do(again)
	closed := make(chan struct{})
	go func() { q.Close(); close(closed) }()
	close(release)
	wait(t, "Close, while a job keeps giving jobs", closed)
}

// The goroutine is started through Options.Go, once for the jobs given while it runs, and
// it ends when no job is left; the next job starts another.
func TestGoroutineStartsThroughGoAndEndsWhenIdle(t *testing.T) {
	var starts atomic.Int64
	var names sync.Map
	ended := make(chan struct{}, 4)
	q := jobs.New(jobs.Options{Name: "test queue", Go: func(name string, fn func()) {
		starts.Add(1)
		names.Store(name, true)
		go func() {
			fn()
			ended <- struct{}{}
		}()
	}})
	release := make(chan struct{})
	q.Do(func() { <-release })
	for range 10 {
		q.Do(func() {})
	}
	close(release)
	wait(t, "the jobs", q.Idle())
	wait(t, "the goroutine to end once idle", ended)
	if n := starts.Load(); n != 1 {
		t.Errorf("%d goroutines started for jobs given while one ran, want 1", n)
	}
	if _, ok := names.Load("test queue"); !ok {
		t.Error("Go was not given the queue's name")
	}
	q.Do(func() {})
	wait(t, "a job given after the goroutine ended", q.Idle())
	wait(t, "the second goroutine to end", ended)
	if n := starts.Load(); n != 2 {
		t.Errorf("%d goroutines started, want 2", n)
	}
}

// A job that panics ends its goroutine; the guard sees the panic, the jobs after it run on
// a new goroutine, and neither the barrier nor Close waits forever.
func TestPanickingJob(t *testing.T) {
	panics := make(chan any, 4)
	q := jobs.New(jobs.Options{Go: func(_ string, fn func()) {
		go func() {
			defer func() {
				if r := recover(); r != nil {
					panics <- r
				}
			}()
			fn()
		}()
	}})
	release := make(chan struct{})
	var after atomic.Int64
	q.Do(func() { <-release })
	q.Do(func() { panic("job failed") })
	q.Do(func() { after.Add(1) })
	q.Do(func() { after.Add(1) })
	close(release)
	wait(t, "the jobs after the panic", q.Idle())
	if after.Load() != 2 {
		t.Errorf("%d jobs of 2 ran after the panic", after.Load())
	}
	waitPanic(t, panics, "job failed")

	q.Do(func() { panic("the last job failed") })
	wait(t, "the barrier after a last job that panicked", q.Idle())
	waitPanic(t, panics, "the last job failed")
	q.Do(func() { after.Add(1) })
	closed := make(chan struct{})
	go func() { q.Close(); close(closed) }()
	wait(t, "Close after a panic", closed)
	if after.Load() != 3 {
		t.Errorf("the job given after a last job that panicked did not run")
	}
	select {
	case r := <-panics:
		t.Errorf("one more panic: %v", r)
	default:
	}
}

// waitPanic waits for the guard to report a panic, and checks it is want.
func waitPanic(t *testing.T, panics <-chan any, want string) {
	t.Helper()
	select {
	case r := <-panics:
		if r != want {
			t.Errorf("the guard saw %v, want %q", r, want)
		}
	case <-time.After(deadline):
		t.Fatalf("the guard never saw the panic %q", want)
	}
}

// The zero Queue works, with a plain go statement.
func TestZeroQueue(t *testing.T) {
	var q jobs.Queue
	done := make(chan struct{})
	q.Do(func() { close(done) })
	wait(t, "a job of the zero Queue", done)
	wait(t, "the zero Queue's barrier", q.Idle())
}
