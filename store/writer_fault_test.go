package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// statusRecorder collects a writer's status reports.
type statusRecorder chan WriterStatus

func (r statusRecorder) next(t *testing.T, failing bool) WriterStatus {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case st := <-r:
			if st.Failing == failing {
				return st
			}
		case <-deadline:
			t.Fatalf("no status with Failing=%v within 10 s", failing)
		}
	}
}

func quickRetries(rec statusRecorder) WriterOptions {
	return WriterOptions{
		Status:   func(st WriterStatus) { rec <- st },
		RetryMin: 5 * time.Millisecond, RetryMax: 20 * time.Millisecond,
	}
}

// A full disk: the writer says so at once for the conversation concerned, keeps what is
// saved meanwhile, says when it resumes once space is free, and writes everything.
func TestWriterDiskFull(t *testing.T) {
	dir := testagents.SmallDisk(t, "2m")
	s, err := Open(filepath.Join(dir, "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	alice, _ := s.AgentConversation("alice")
	bob, _ := s.AgentConversation("bob")
	rec := make(statusRecorder, 100)
	w := NewWriterWith(s, quickRetries(rec))
	defer w.Close()
	w.Save(alice, textEntry(chat.KindUser, "", "before", 0))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	free := testagents.FillDisk(t, dir)
	big := strings.Repeat("x", 4000)
	for i := range 20 {
		w.Save(alice, textEntry(chat.KindUser, "", fmt.Sprintf("during %d %s", i, big), i+1))
	}
	st := rec.next(t, true)
	if !slices.Equal(st.Convs, []ConvID{alice}) {
		t.Errorf("first report names %v, want alice's conversation %d", st.Convs, alice)
	}
	if got := s.Problem(i18n.English, st.Err); got != "disk is full" {
		t.Errorf("Problem = %q (%v)", got, st.Err)
	}
	if got := s.Problem(i18n.French, st.Err); got != "le disque est plein" {
		t.Errorf("Problem in French = %q", got)
	}
	start := time.Now()
	if err := w.Flush(); err == nil {
		t.Error("Flush while the disk is full: no error")
	} else if time.Since(start) > time.Second {
		t.Errorf("Flush while failing waited %v", time.Since(start))
	}
	// bob's first entry while failing: bob's conversation is told too.
	w.Save(bob, textEntry(chat.KindUser, "", "bob during", 30))
	if st := rec.next(t, true); !slices.Equal(st.Convs, []ConvID{bob}) {
		t.Errorf("second report names %v, want bob's %d", st.Convs, bob)
	}
	if n := w.Unsaved(); n != 21 {
		t.Errorf("Unsaved = %d, want 21", n)
	}
	free()
	st = rec.next(t, false)
	if !slices.Equal(st.Convs, []ConvID{alice, bob}) || st.Lost != 0 {
		t.Errorf("resumed: %+v", st)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	page, _ := s.LastPage(alice, 100)
	if len(page) != 21 || !strings.HasPrefix(page[20].Text, "during 19 ") {
		t.Errorf("alice's conversation after the disk was freed: %d entries", len(page))
	}
	if page, _ := s.LastPage(bob, 10); len(page) != 1 {
		t.Errorf("bob's conversation: %q", texts(page))
	}
}

// Past MaxPending, entries are not kept: they are counted, and Close says how many were
// not saved.
func TestWriterBoundWhileFailing(t *testing.T) {
	dir := testagents.SmallDisk(t, "1m")
	s, err := Open(filepath.Join(dir, "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conv, _ := s.AgentConversation("alice")
	rec := make(statusRecorder, 100)
	opts := quickRetries(rec)
	opts.MaxPending = 10 << 10
	w := NewWriterWith(s, opts)
	testagents.FillDisk(t, dir)
	for i := range 10 {
		w.Save(conv, textEntry(chat.KindUser, "", fmt.Sprintf("%d %s", i, strings.Repeat("y", 3000)), i))
	}
	rec.next(t, true)
	w.mu.Lock()
	kept, lost, size := len(w.pending), len(w.dropped), w.size
	w.mu.Unlock()
	if kept != 3 || lost != 7 || size > opts.MaxPending {
		t.Errorf("kept %d, lost %d, %d bytes held (bound %d)", kept, lost, size, opts.MaxPending)
	}
	var unsaved *UnsavedError
	if err := w.Close(); !errors.As(err, &unsaved) || unsaved.Entries != 10 {
		t.Fatalf("Close = %v", err)
	}
}

// An immutable database file: opened read-only by SQLite, every write fails; once the flag
// is removed, the writer's new connections write what waited.
func TestWriterImmutableFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := s.AgentConversation("alice")
	s.Close()
	undo := testagents.Immutable(t, path)
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := make(statusRecorder, 100)
	w := NewWriterWith(s, quickRetries(rec))
	defer w.Close()
	w.Save(conv, textEntry(chat.KindUser, "", "typed while immutable", 1))
	st := rec.next(t, true)
	if got := s.Problem(i18n.English, st.Err); got != "the file cannot be changed (immutable or append-only)" {
		t.Errorf("Problem = %q (%v)", got, st.Err)
	}
	undo()
	rec.next(t, false)
	if page, _ := s.LastPage(conv, 10); len(page) != 1 || page[0].Text != "typed while immutable" {
		t.Errorf("after the flag was removed: %q", texts(page))
	}
}
