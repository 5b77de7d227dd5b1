package acp

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// gateWorkspace is a workspace whose reads wait at a gate, counting how many run at once.
type gateWorkspace struct {
	gate            chan struct{}
	entered         chan struct{}
	running, maxRun atomic.Int64
}

func (w *gateWorkspace) Root() string { return "/ws" }

func (w *gateWorkspace) ReadFile(ctx context.Context, rel string, max int64) ([]byte, error) {
	n := w.running.Add(1)
	for {
		m := w.maxRun.Load()
		if n <= m || w.maxRun.CompareAndSwap(m, n) {
			break
		}
	}
	w.entered <- struct{}{}
	<-w.gate
	w.running.Add(-1)
	return []byte("x"), nil
}

func (w *gateWorkspace) WriteFile(context.Context, string, []byte) error { return nil }

// An agent that sends many reads at once gets them answered a few at a time: the bytes
// they may load never pass MaxReadInFlight.
func TestReadsInFlightAreBounded(t *testing.T) {
	ws := &gateWorkspace{gate: make(chan struct{}), entered: make(chan struct{}, 64)}
	in, _ := io.Pipe()
	c := NewConn("greedy", in, io.Discard, Options{Workspace: ws})
	defer c.Close()
	c.mu.Lock()
	c.sessions["s1"] = &Session{c: c, id: "s1"}
	c.mu.Unlock()
	params, _ := json.Marshal(map[string]any{"sessionId": "s1", "path": "/ws/big.txt"})

	const reads = 20
	allowed := int(MaxReadInFlight / MaxReadContent)
	var wg sync.WaitGroup
	for range reads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, e := c.serveRead(params); e != nil {
				t.Errorf("read: %v", e.Message)
			}
		}()
	}
	deadline := time.After(10 * time.Second)
	for i := range reads {
		select {
		case <-ws.entered:
		case <-deadline:
			t.Fatalf("only %d reads started", i)
		}
		if i >= allowed-1 {
			ws.gate <- struct{}{} // one read ends, so that one more may start
		}
	}
	for range allowed - 1 {
		ws.gate <- struct{}{}
	}
	wg.Wait()
	if got := ws.maxRun.Load(); got > int64(allowed) {
		t.Errorf("%d reads ran at once, want at most %d (%d bytes in flight)", got, allowed, MaxReadInFlight)
	}
}

// A read waiting for room gives up when its context ends.
func TestReadBudgetWaitEndsWithTheContext(t *testing.T) {
	b := newReadBudget(10)
	if err := b.acquire(context.Background(), 10); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.acquire(ctx, 1) }()
	cancel()
	select {
	case err := <-done:
		if err == nil {
			t.Error("acquire got room that was not there")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("acquire did not give up with its context")
	}
	b.release(10)
	if err := b.acquire(context.Background(), 10); err != nil {
		t.Errorf("the room given back is not free: %v", err)
	}
}
