package store

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

func TestWindowsNeverSaved(t *testing.T) {
	s := newTestStore(t)
	refs, saved, err := s.Windows()
	if err != nil || saved || refs != nil {
		t.Fatalf("Windows on a new history = %v, %v, %v; want nothing, not saved", refs, saved, err)
	}
	// Saving no window is remembered as such: the next start opens none.
	if err := s.SaveWindows(nil); err != nil {
		t.Fatal(err)
	}
	refs, saved, err = s.Windows()
	if err != nil || !saved || len(refs) != 0 {
		t.Fatalf("after saving no window: %v, %v, %v; want none, saved", refs, saved, err)
	}
}

func TestWindowsRoundTripAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.CreateChannel("Général", "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateChannel("ops", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []WindowRef{
		{Kind: WindowChannel, Channel: b.ID},
		{Kind: WindowAgent, Agent: "alice", Focused: true},
		{Kind: WindowChannel, Channel: a.ID},
	}
	if err := s.SaveWindows(want); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, saved, err := s.Windows()
	if err != nil || !saved || !reflect.DeepEqual(got, want) {
		t.Fatalf("Windows after reopen = %+v, %v, %v; want %+v", got, saved, err, want)
	}
	// A renamed channel keeps its window; a deleted one loses it.
	if err := s.RenameChannel(a.ID, "général-2"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteChannel(b.ID); err != nil {
		t.Fatal(err)
	}
	got, _, err = s.Windows()
	if err != nil || !reflect.DeepEqual(got, want[1:]) {
		t.Fatalf("Windows after deleting a channel = %+v, %v; want %+v", got, err, want[1:])
	}
	// Saving again replaces the list.
	if err := s.SaveWindows(want[2:]); err != nil {
		t.Fatal(err)
	}
	if got, _, _ = s.Windows(); !reflect.DeepEqual(got, want[2:]) {
		t.Fatalf("Windows after saving one = %+v", got)
	}
}

func TestSaveWindowsRefusesBadRefs(t *testing.T) {
	s := newTestStore(t)
	ch, err := s.CreateChannel("a", "")
	if err != nil {
		t.Fatal(err)
	}
	good := []WindowRef{{Kind: WindowChannel, Channel: ch.ID}}
	if err := s.SaveWindows(good); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]WindowRef{
		{{Kind: WindowChannel, Channel: ch.ID + 100}},
		{{Kind: WindowAgent, Agent: ""}},
		{{Kind: WindowAgent, Agent: "bad\x1bname"}},
		{{Kind: "chart"}},
	} {
		err := s.SaveWindows(append(append([]WindowRef(nil), good...), bad...))
		if err == nil {
			t.Errorf("SaveWindows(%+v) succeeded", bad)
		}
		if bad[0].Kind == WindowChannel && !errors.Is(err, ErrNoChannel) {
			t.Errorf("a missing channel: %v, want ErrNoChannel", err)
		}
		// Nothing changed: the good list is still there.
		if got, _, _ := s.Windows(); !reflect.DeepEqual(got, good) {
			t.Errorf("after a refused save: %+v, want %+v", got, good)
		}
	}
}
