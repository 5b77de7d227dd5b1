package main

import (
	"slices"
	"testing"
	"time"
)

// TestCalmKeys: a key is left out when cat's key before it or after it stalled, and kept
// otherwise.
func TestCalmKeys(t *testing.T) {
	ms := time.Millisecond
	keys := []time.Duration{1 * ms, 9 * ms, 2 * ms, 8 * ms, 3 * ms}
	cat := []time.Duration{ms / 2, 5 * ms, ms / 2, ms / 2, 7 * ms}
	// Key 0: cat 0 calm, cat 1 stalled: out. Key 1: cat 1 stalled: out. Key 2: cats 2 and 3
	// calm: kept. Key 3: cat 4 stalled: out. Key 4: cat 4 stalled: out.
	if got, want := calmKeys(keys, cat, ms), []time.Duration{2 * ms}; !slices.Equal(got, want) {
		t.Errorf("calmKeys = %v, want %v", got, want)
	}
	if got := calmKeys(keys, cat, 10*ms); !slices.Equal(got, keys) {
		t.Errorf("with no stall, calmKeys = %v, want every key", got)
	}
}
