package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// linkedConfig makes real/team.yaml and a link to the folder real, and returns the
// configuration's path through the folder and through the link.
func linkedConfig(t *testing.T) (real, linked string) {
	t.Helper()
	root := t.TempDir()
	t.Setenv(DataDirEnv, filepath.Join(root, "data"))
	dir := filepath.Join(root, "real")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	real = filepath.Join(dir, "team.yaml")
	if err := os.WriteFile(real, []byte("agents: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(root, "link")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	return real, filepath.Join(root, "link", "team.yaml")
}

func TestLinkedFolderSameHistory(t *testing.T) {
	real, linked := linkedConfig(t)
	a, err := DefaultPath(real)
	if err != nil {
		t.Fatal(err)
	}
	b, err := DefaultPath(linked)
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("the same file has two histories: %s through its folder, %s through the link", a, b)
	}
	// A file not created yet in the linked folder has the key it will have once created.
	missing := filepath.Join(filepath.Dir(linked), "later", "new.yaml")
	key, err := ConfigKey(missing)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(filepath.Dir(real), "later", "new.yaml"); key != want {
		t.Errorf("ConfigKey(%s) = %s, want %s", missing, key, want)
	}
}

func TestLinkedFolderSecondInstanceRefused(t *testing.T) {
	real, linked := linkedConfig(t)
	holder, release := startHolder(t, "hold-config", linked)
	_, err := OpenConfig(real)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != holder.Process.Pid {
		t.Fatalf("OpenConfig through the folder while another process holds it through the link = %v, want a LockedError with PID %d", err, holder.Process.Pid)
	}
	release.Close()
	if err := holder.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	s, err := OpenConfig(real)
	if err != nil {
		t.Fatalf("OpenConfig once the other process closed: %v", err)
	}
	s.Close()
}

func TestLegacyHistoryAdopted(t *testing.T) {
	real, linked := linkedConfig(t)
	legacy := LegacyPath(linked)
	if legacy == "" {
		t.Fatal("no legacy path for a configuration reached through a link")
	}
	if LegacyPath(real) != "" {
		t.Errorf("a path without links has a legacy path %q", LegacyPath(real))
	}
	// An earlier Sidekicks wrote its history under the unresolved path; it was killed, so
	// its last entry is only in the write-ahead log.
	old, err := Open(legacy)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := old.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, old, conv, textEntry(chat.KindUser, "", "before the upgrade", 1))
	if fi, err := os.Stat(legacy + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("no write-ahead log to carry over: %v", err)
	}
	old.lock.release() // killed: the lock goes, the database and its log stay open as they were
	s, err := OpenConfig(linked)
	if err != nil {
		t.Fatalf("OpenConfig: %v", err)
	}
	defer s.Close()
	defer old.db.Close()
	want, _ := DefaultPath(real)
	if s.Path() != want {
		t.Errorf("opened %s, want %s", s.Path(), want)
	}
	conv, err = s.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.LastPage(conv, 10)
	if err != nil || !equalStrings(texts(got), []string{"before the upgrade"}) {
		t.Fatalf("history after the move = %q, %v; want the legacy entry", texts(got), err)
	}
	if _, err := os.Stat(legacy); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the legacy database is still there: %v", err)
	}
}

func TestLegacyHistoryLeftWhenBothExist(t *testing.T) {
	real, linked := linkedConfig(t)
	for _, p := range []string{LegacyPath(linked), mustDefault(t, real)} {
		s, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		conv, _ := s.AgentConversation("alice")
		mustSave(t, s, conv, textEntry(chat.KindUser, "", p, 1))
		s.Close()
	}
	s, err := OpenConfig(linked)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conv, _ := s.AgentConversation("alice")
	got, _ := s.LastPage(conv, 10)
	if !equalStrings(texts(got), []string{mustDefault(t, real)}) {
		t.Errorf("opened %q, want the resolved history", texts(got))
	}
	if _, err := os.Stat(LegacyPath(linked)); err != nil {
		t.Errorf("the legacy history was touched: %v", err)
	}
}

func TestLegacyHistoryInUseRefused(t *testing.T) {
	_, linked := linkedConfig(t)
	legacy := LegacyPath(linked)
	holder, _ := startHolder(t, "hold-lock", legacy)
	_, err := OpenConfig(linked)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != holder.Process.Pid || locked.Path != legacy {
		t.Fatalf("OpenConfig while an earlier Sidekicks holds the legacy history = %v, want a LockedError on %s", err, legacy)
	}
}

func mustDefault(t *testing.T, configPath string) string {
	t.Helper()
	p, err := DefaultPath(configPath)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
