package acp_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
)

// TestReaderRestsAsAsked: a reader taking in a flood asks Options.Rest each time it has read
// and handled lines for a millisecond without waiting for one, and rests as long as it says:
// the flood of 20,000 chunks takes at least the rests asked, and arrives whole. (The
// application has it rest while the user types, so that keys find a CPU.)
func TestReaderRestsAsAsked(t *testing.T) {
	const n, size = 20000, 256
	const rest = 2 * time.Millisecond
	var mu sync.Mutex
	var asked []time.Duration
	var restOn bool // the rests start with the flood
	_, s, rec := session(t, "basic", acp.Options{Rest: func(busy time.Duration) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		if !restOn {
			return 0
		}
		asked = append(asked, busy)
		return rest
	}})
	mu.Lock()
	restOn = true
	mu.Unlock()
	start := time.Now()
	prompt(t, s, fmt.Sprintf("chunkflood %d %d", n, size))
	took := time.Since(start)
	if got := rec.bytesOf(acp.AgentMessageChunk); got != n*size {
		t.Errorf("received %d bytes of text, want %d", got, n*size)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) == 0 {
		t.Fatal("the reader never asked whether to rest during a flood of 20,000 chunks")
	}
	for i, b := range asked {
		if b < time.Millisecond {
			t.Fatalf("rest %d was asked after %v of work, want at least 1 ms", i, b)
		}
	}
	if min := time.Duration(len(asked)) * rest; took < min {
		t.Errorf("the flood took %v with %d rests of %v asked: it did not rest", took, len(asked), rest)
	}
}
