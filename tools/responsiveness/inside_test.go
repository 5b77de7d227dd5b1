package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestInsideOfMatchesEachKeyWithItsEvent: a key typed is matched with the first key event
// sidekicks made after it was sent and before its echo, not with an earlier or a later one.
func TestInsideOfMatchesEachKeyWithItsEvent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.txt")
	// made (µs), then the three parts of the time inside, then the loop's turn before.
	log := "1000000 10 20 30 0 0 0\n1000500 100 200 300 0 0 0\n\x00\x00garbled\n1002000 1 1 1 0 0 0\n"
	if err := os.WriteFile(path, []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := readKeyLog(path)
	if err != nil || len(keys) != 3 {
		t.Fatalf("read %d keys (%v), want 3", len(keys), err)
	}
	at := func(us int64) time.Time { return time.UnixMicro(us) }
	for _, c := range []struct {
		k    sent
		want time.Duration
		ok   bool
	}{
		{sent{at(999_900), time.Millisecond}, 60 * time.Microsecond, true},
		{sent{at(1_000_100), time.Millisecond}, 600 * time.Microsecond, true},
		{sent{at(1_000_600), time.Millisecond}, 0, false}, // its event would come after its echo
		{sent{at(1_001_990), time.Millisecond}, 3 * time.Microsecond, true},
	} {
		got, ok := insideOf(keys, c.k)
		if got != c.want || ok != c.ok {
			t.Errorf("key sent at %v: inside %v (%v), want %v (%v)", c.k.at.UnixMicro(), got, ok, c.want, c.ok)
		}
	}
}
