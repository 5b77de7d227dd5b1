package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// truncatedHistory writes a history of a few pages at path, then cuts the file in half.
func truncatedHistory(t *testing.T, path string) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := s.AgentConversation("alice")
	for i := range 100 {
		mustSave(t, s, conv, textEntry(chat.KindUser, "", strings.Repeat("words ", 100), i))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
}

func TestTruncatedHistoryIsDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "team.db")
	truncatedHistory(t, path)
	before, _ := os.ReadFile(path)
	_, err := Open(path)
	var damaged *DamagedError
	if !errors.As(err, &damaged) || damaged.Path != path {
		t.Fatalf("Open of a truncated history = %v, want a DamagedError", err)
	}
	if !strings.Contains(damaged.Reason(), "malformed") {
		t.Errorf("reason %q does not give SQLite's words", damaged.Reason())
	}
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		msg := damaged.Message(lang)
		for _, want := range []string{path, ".recover", "-wal"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%v message lacks %q:\n%s", lang, want, msg)
			}
		}
	}
	if fr := damaged.Message(i18n.French); !strings.Contains(fr, "endommagé") {
		t.Errorf("French message %q", fr)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("the damaged file was changed by the open")
	}
	// The lock was given back: setting the file aside may take it.
	aside := AsidePath(path, time.Date(2026, 12, 1, 18, 30, 5, 0, time.UTC))
	if want := path + ".damaged-20261201T183005Z"; aside != want {
		t.Errorf("AsidePath = %s, want %s", aside, want)
	}
	if err := SetAside(path, aside); err != nil {
		t.Fatalf("SetAside: %v", err)
	}
	if kept, _ := os.ReadFile(aside); string(kept) != string(before) {
		t.Error("the damaged file was not kept whole")
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open once the damaged file is aside: %v", err)
	}
	defer s.Close()
	conv, _ := s.AgentConversation("alice")
	if n, err := s.Count(conv); err != nil || n != 0 {
		t.Errorf("the new history holds %d entries, %v", n, err)
	}
}

func TestSetAsideNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "team.db")
	truncatedHistory(t, path)
	aside := path + ".damaged-x"
	if err := os.WriteFile(aside, []byte("kept before"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SetAside(path, aside); err == nil {
		t.Fatal("SetAside replaced an existing file")
	}
	if b, _ := os.ReadFile(aside); string(b) != "kept before" {
		t.Error("the existing file was changed")
	}
}
