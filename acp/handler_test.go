package acp_test

import (
	"context"
	goruntime "runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// recorder is a SessionHandler that keeps what it is given, within bounds: the first
// MiB of text per chunk kind, every byte counted; the first updates, every one counted.
type recorder struct {
	mu      sync.Mutex
	text    map[string]*strings.Builder
	bytes   map[string]int64
	chunks  int64
	updates []sdk.SessionUpdate
	kinds   map[string]int
	nUpdate int64

	// perm answers permission requests; nil refuses with the first reject option.
	perm      func(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse
	permCalls atomic.Int64
	permReqs  []sdk.RequestPermissionRequest

	// changed is signalled after every chunk and update.
	changed chan struct{}
}

const recorderTextCap = 1 << 20

func newRecorder() *recorder {
	return &recorder{text: map[string]*strings.Builder{}, bytes: map[string]int64{}, kinds: map[string]int{}, changed: make(chan struct{}, 1)}
}

func (r *recorder) signal() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// waitUntil waits, with the test deadline, until cond (called without the lock) holds.
func (r *recorder) waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(testDeadline)
	for !cond() {
		select {
		case <-r.changed:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (r *recorder) Chunk(kind, text string) {
	defer r.signal()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.chunks++
	r.bytes[kind] += int64(len(text))
	b := r.text[kind]
	if b == nil {
		b = &strings.Builder{}
		r.text[kind] = b
	}
	if room := recorderTextCap - b.Len(); room > 0 {
		b.WriteString(text[:min(room, len(text))])
	}
}

func (r *recorder) Update(u sdk.SessionUpdate) {
	defer r.signal()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nUpdate++
	r.kinds[kindOf(u)]++
	if len(r.updates) < 1000 {
		r.updates = append(r.updates, u)
	}
}

func (r *recorder) RequestPermission(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	r.permCalls.Add(1)
	r.mu.Lock()
	if len(r.permReqs) < 100 {
		r.permReqs = append(r.permReqs, req)
	}
	perm := r.perm
	r.mu.Unlock()
	if perm != nil {
		return perm(ctx, req)
	}
	return choose(req, sdk.PermissionOptionKindRejectOnce)
}

// choose picks the first option of the kind.
func choose(req sdk.RequestPermissionRequest, kind sdk.PermissionOptionKind) sdk.RequestPermissionResponse {
	for _, o := range req.Options {
		if o.Kind == kind {
			return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
				Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: o.OptionId},
			}}
		}
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
		Cancelled: &sdk.RequestPermissionOutcomeCancelled{},
	}}
}

func allow(_ context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	return choose(req, sdk.PermissionOptionKindAllowOnce)
}

func (r *recorder) setPerm(f func(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.perm = f
}

func (r *recorder) permRequests() []sdk.RequestPermissionRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sdk.RequestPermissionRequest(nil), r.permReqs...)
}

func (r *recorder) textOf(kind string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.text[kind]; b != nil {
		return b.String()
	}
	return ""
}

func (r *recorder) bytesOf(kind string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.bytes[kind]
}

func (r *recorder) kindCount(kind string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.kinds[kind]
}

func (r *recorder) allUpdates() []sdk.SessionUpdate {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sdk.SessionUpdate(nil), r.updates...)
}

func kindOf(u sdk.SessionUpdate) string {
	switch {
	case u.UserMessageChunk != nil:
		return "user_message_chunk"
	case u.AgentMessageChunk != nil:
		return "agent_message_chunk"
	case u.AgentThoughtChunk != nil:
		return "agent_thought_chunk"
	case u.ToolCall != nil:
		return "tool_call"
	case u.ToolCallUpdate != nil:
		return "tool_call_update"
	case u.Plan != nil:
		return "plan"
	case u.AvailableCommandsUpdate != nil:
		return "available_commands_update"
	case u.CurrentModeUpdate != nil:
		return "current_mode_update"
	case u.ConfigOptionUpdate != nil:
		return "config_option_update"
	case u.SessionInfoUpdate != nil:
		return "session_info_update"
	case u.UsageUpdate != nil:
		return "usage_update"
	}
	return "?"
}

// text makes a text content block.
func text(s string) []sdk.ContentBlock { return []sdk.ContentBlock{sdk.TextBlock(s)} }

// sampleMemory records the largest HeapInuse of this process until the returned
// function is called, which returns it.
func sampleMemory() func() uint64 {
	var (
		mu   sync.Mutex
		peak uint64
	)
	stop := make(chan struct{})
	done := make(chan struct{})
	read := func() {
		var m goruntime.MemStats
		goruntime.ReadMemStats(&m)
		mu.Lock()
		peak = max(peak, m.HeapInuse)
		mu.Unlock()
	}
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				read()
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		read()
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}

// assertPeak fails when the peak is over 300 MiB.
func assertPeak(t *testing.T, peak uint64) {
	t.Helper()
	const limit = 300 << 20
	t.Logf("peak heap in use: %.1f MiB", float64(peak)/(1<<20))
	if peak > limit {
		t.Errorf("peak heap in use %d MiB, over 300 MiB", peak>>20)
	}
}
