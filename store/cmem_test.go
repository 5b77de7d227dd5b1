//go:build linux

package store

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// anonymousKiB is the process's resident anonymous memory: the Go heap and SQLite's C
// memory.
func anonymousKiB(t *testing.T) int64 {
	t.Helper()
	debug.FreeOSMemory() // the Go heap's garbage given back: what stays is live
	b, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		t.Skipf("no smaps_rollup: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "Anonymous:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("smaps_rollup: %q", line)
			}
			return n
		}
	}
	t.Fatalf("no Anonymous line in smaps_rollup")
	return 0
}

// TestLongEntryMemoryGivenBack streams a reply of 3 MB as the application saves one (saved
// again as it grows), with a long prompt before it, then reads them back (a page), finds
// them with a search and reads them for a catch-up: the memory SQLite took for them goes
// back to the system once they are written, read and found, instead of staying with the C
// allocator for as long as the program runs.
func TestLongEntryMemoryGivenBack(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's shadow memory hides SQLite's")
	}
	s := newTestStore(t)
	conv, _ := s.AgentConversation("bob")
	w := NewWriter(s)
	defer w.Close()
	w.Save(conv, textEntry(chat.KindUser, "", "warm up", 1))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 0; b.Len() < 3<<20; i++ {
		fmt.Fprintf(&b, "line %08d of the memory test..\n", i)
	}
	text := b.String()
	before := anonymousKiB(t)
	w.Save(conv, textEntry(chat.KindUser, "", text[:len(text)/4], 2))
	e := chat.Entry{Kind: chat.KindAgent, Author: "bob"}
	e.ID = w.Save(conv, e)
	for step := 1; step <= 24; step++ { // every size class from 128 KiB to 4 MiB, several times
		e.Text = text[:len(text)*step/24]
		w.Save(conv, e)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	page, err := s.LastPage(conv, 10)
	if err != nil || len(page) != 3 || page[2].Text != text {
		t.Fatalf("read back: %d entries, %v", len(page), err)
	}
	page = nil
	// Found by a search: indexed, then read for the snippets.
	if hits, err := s.Search("memory test", 10); err != nil || len(hits) != 2 {
		t.Fatalf("search: %d hits, %v", len(hits), err)
	}
	// Read by a catch-up (as a channel's, for an agent that saw none of it).
	if unseen, err := s.Unseen(conv, "alice"); err != nil || len(unseen) != 3 {
		t.Fatalf("unseen: %d entries, %v", len(unseen), err)
	}
	after := anonymousKiB(t)
	// The text itself is 3 MiB, held by the test: nothing of the copies should stay.
	if grown := after - before; grown > 1024 {
		t.Errorf("resident anonymous memory grew by %d KiB writing, reading and finding a %d KiB reply and its prompt", grown, len(text)>>10)
	}
	t.Logf("resident anonymous memory %d → %d KiB", before, after)
}

// statusKiB is a line of /proc/self/status, in KiB.
func statusKiB(t *testing.T, name string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, name+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatalf("status: %q", line)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/self/status", name)
	return 0
}

// TestLongEntryWriteCopiesFewTimes: saving a long streaming reply again holds a few copies
// of its text at a time, not one for each time a trigger or an index looks at it (schema 5's
// trim(text) in the message counts copied it twice a look, five looks a write).
func TestLongEntryWriteCopiesFewTimes(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("bob")
	checkLongSaveCopies(t, s, conv)
}

// checkLongSaveCopies saves a reply of 8 MiB in conv, then again longer, and fails when the
// second save raised the peak resident memory by more than 6 times the text.
func checkLongSaveCopies(t *testing.T, s *Store, conv ConvID) {
	t.Helper()
	text := strings.Repeat("line of the memory test, 34 bytes\n", (8<<20)/34)
	e := textEntry(chat.KindAgent, "bob", text[:len(text)/2], 1)
	e.ID = mustSave(t, s, conv, e)
	e.Text = text
	anonymousKiB(t) // the garbage of the first save given back
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Skipf("cannot reset the peak resident memory: %v", err)
	}
	before := statusKiB(t, "VmHWM")
	mustSave(t, s, conv, e)
	peak := statusKiB(t, "VmHWM") - before
	// Copies SQLite cannot do without: the bound value, the old row's text (the triggers
	// compare it), the new record, one more for the GLOB of the new text; and pages of the
	// page cache and the allocator's rounding: about 4.5 texts. Schema 5 took 7.5.
	if limit := int64(6 * len(text) >> 10); peak > limit {
		t.Errorf("peak resident memory grew by %d KiB saving a %d KiB reply again (%.1f copies), want at most %d KiB",
			peak, len(text)>>10, float64(peak)/float64(len(text)>>10), limit)
	}
	t.Logf("peak +%d KiB for a %d KiB text", peak, len(text)>>10)
}

// checkedLibc are the versions of modernc.org/libc and modernc.org/memory whose allocator
// variables cmem_musl.go was checked against (their names and types).
var checkedLibc = map[string]string{"modernc.org/libc": "v1.80.1", "modernc.org/memory": "v1.12.1"}

// TestLibcAllocatorChecked fails when go.mod takes another libc or memory than the one
// trimCMemory was checked against: a renamed variable fails to link, but one whose type
// changed would be used wrongly. Check libc_musl.go's declarations, then the version here.
func TestLibcAllocatorChecked(t *testing.T) {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "require" {
			f = f[1:]
		}
		if len(f) > 0 && f[0] == "replace" || len(f) > 2 && f[2] == "=>" {
			for path := range checkedLibc {
				if strings.Contains(line, path) {
					t.Errorf("go.mod replaces %s: %s", path, line)
				}
			}
			continue
		}
		if len(f) < 2 {
			continue
		}
		if want, ok := checkedLibc[f[0]]; ok {
			found++
			if f[1] != want {
				t.Errorf("go.mod takes %s %s, cmem_musl.go was checked against %s", f[0], f[1], want)
			}
		}
	}
	if found != len(checkedLibc) {
		t.Errorf("found %d of the %d modules in go.mod", found, len(checkedLibc))
	}
}
