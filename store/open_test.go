package store

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestOpenNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "new.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Path() != path {
		t.Errorf("Path = %s, want %s", s.Path(), path)
	}
	checkPragma(t, s, "journal_mode", "wal")
	checkPragma(t, s, "foreign_keys", "1")
	checkPragma(t, s, "synchronous", "1")
	checkPragma(t, s, "busy_timeout", fmt.Sprint(busyTimeoutMS))
	checkPragma(t, s, "cache_size", fmt.Sprint(-cacheKiB))
	checkPragma(t, s, "user_version", fmt.Sprint(SchemaVersion()))
	for _, p := range []string{path, filepath.Dir(path)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is readable by others: %v", p, fi.Mode())
		}
	}
	lock, err := os.ReadFile(path + ".lock")
	if err != nil || strings.TrimSpace(string(lock)) != fmt.Sprint(os.Getpid()) {
		t.Errorf("lock file = %q, %v; want this PID", lock, err)
	}
}

// checkPragma checks the value a pragma reads on one of the store's connections.
func checkPragma(t *testing.T, s *Store, name, want string) {
	t.Helper()
	var got string
	if err := s.db.QueryRow("PRAGMA " + name).Scan(&got); err != nil || got != want {
		t.Errorf("PRAGMA %s = %q, %v; want %q", name, got, err, want)
	}
}

func TestOpenMakesAReadableHistoryPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != 0o600 {
			t.Errorf("%s has mode %04o; want 0600", p, got)
		}
	}
}

func TestOpenEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	checkPragma(t, s, "user_version", fmt.Sprint(SchemaVersion()))
	ch, err := s.CreateChannel("général", "")
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.ChannelConversation(ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, conv, textEntry(chat.KindUser, "", "kept across a reopen", 1))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Reopened: nothing to migrate, everything there, entry ids go on.
	s, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page, err := s.LastPage(conv, 10)
	if err != nil || !equalStrings(texts(page), []string{"kept across a reopen"}) {
		t.Fatalf("after reopen: %q, %v", texts(page), err)
	}
	id := mustSave(t, s, conv, textEntry(chat.KindUser, "", "next", 2))
	if id <= page[0].ID {
		t.Errorf("new id %d after %d", id, page[0].ID)
	}
}

// rawDB opens a database file without the store, as another program would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// oldDatabase writes, at path, a database at schema version (its first migrations), then
// runs stmts (its user_version among them), as an older Sidekicks would have left it.
func oldDatabase(t *testing.T, path string, version int, stmts ...string) {
	t.Helper()
	db := rawDB(t, path)
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:version] {
		if err := m(context.Background(), tx); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range stmts {
		if _, err := tx.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	oldDatabase(t, path, 1,
		`PRAGMA user_version = 1`,
		`INSERT INTO channels(id, name, name_key, description, created) VALUES (1, 'Général', 'général', 'old', 5)`,
		`INSERT INTO members(channel_id, agent, position) VALUES (1, 'bob', 1), (1, 'alice', 2)`,
		`INSERT INTO conversations(id, channel_id) VALUES (1, 1)`,
		`INSERT INTO conversations(id, agent) VALUES (2, 'alice')`,
		`INSERT INTO entries(id, conv_id, kind, author, created, updated, text, done) VALUES
			(1, 1, 'user', '', 10, 10, 'the old penguin report', 1),
			(2, 2, 'agent', 'alice', 20, 20, 'a penguin answer', 1)`,
		`INSERT INTO sessions(conv_id, agent, session_id, seen) VALUES (1, 'alice', 'sess-1', 1)`,
	)

	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkPragma(t, s, "user_version", fmt.Sprint(SchemaVersion()))
	chans, err := s.Channels()
	if err != nil || len(chans) != 1 || chans[0].Name != "Général" || !equalStrings(chans[0].Members, []string{"bob", "alice"}) {
		t.Fatalf("channels after migration: %+v, %v", chans, err)
	}
	// What version 1 stored is searchable once version 2 has indexed it.
	hits, err := s.Search("penguin", 10)
	if err != nil || len(hits) != 2 || hits[0].EntryID != 2 || hits[1].EntryID != 1 {
		t.Fatalf("search after migration: %+v, %v", hits, err)
	}
	if sess, err := s.Session(1, "alice"); err != nil || sess != "sess-1" {
		t.Errorf("session after migration: %q, %v", sess, err)
	}
	// New entries continue after the old ids.
	if id := mustSave(t, s, 1, textEntry(chat.KindUser, "", "new", 3)); id != 3 {
		t.Errorf("first new id = %d, want 3", id)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	for _, wal := range []bool{false, true} {
		t.Run(fmt.Sprintf("wal=%v", wal), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "future.db")
			db := rawDB(t, path)
			stmts := []string{`CREATE TABLE future(x)`, `INSERT INTO future VALUES ('from tomorrow')`,
				fmt.Sprintf(`PRAGMA user_version = %d`, SchemaVersion()+1)}
			if wal {
				stmts = append([]string{`PRAGMA journal_mode = WAL`}, stmts...)
			}
			for _, q := range stmts {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for range 2 { // the second time shows the lock was given back
				_, err = Open(path)
				var newer *NewerSchemaError
				if !errors.As(err, &newer) || newer.Found != SchemaVersion()+1 || newer.Known != SchemaVersion() {
					t.Fatalf("Open = %v, want a NewerSchemaError", err)
				}
				for _, want := range []string{fmt.Sprint(SchemaVersion() + 1), fmt.Sprint(SchemaVersion()), "newer Sidekicks", path} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("message %q lacks %q", err, want)
					}
				}
				if fr := newer.Message(i18n.French); !strings.Contains(fr, "plus récent") {
					t.Errorf("French message %q", fr)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(before, after) {
				t.Fatalf("the newer database changed (%v)", err)
			}
		})
	}
}

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junk.db")
	junk := bytes.Repeat([]byte("this is not a database. "), 200)
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		s, err := Open(path)
		if err == nil {
			s.Close()
			t.Fatal("Open accepted a file that is not a database")
		}
		var locked *LockedError
		if errors.As(err, &locked) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Open = %v", err)
		}
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, junk) {
		t.Error("the file was changed")
	}
}

func TestLockSameProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locked.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != os.Getpid() || locked.Path != path {
		t.Fatalf("second Open = %v, want a LockedError with PID %d", err, os.Getpid())
	}
	want := fmt.Sprintf("the history %s is in use by another Sidekicks (process %d)", path, os.Getpid())
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if fr := locked.Message(i18n.French); !strings.Contains(fr, fmt.Sprintf("processus %d", os.Getpid())) {
		t.Errorf("French message %q", fr)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	s, err = Open(path)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	s.Close()
}

// startHolder starts the test binary as a helper of role holding target (a database or a
// configuration file), and returns once it holds it, with the pipe that releases it.
func startHolder(t *testing.T, role, target string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+role, helperDBEnv+"="+target)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if want := fmt.Sprintf("ready %d\n", cmd.Process.Pid); line != want {
		t.Fatalf("helper said %q, %v; want %q", line, err, want)
	}
	return cmd, stdin
}

func TestLockOtherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	cmd, stdin := startHolder(t, "hold-lock", path)
	_, err := Open(path)
	var locked *LockedError
	if !errors.As(err, &locked) || locked.PID != cmd.Process.Pid {
		t.Fatalf("Open while another process holds it = %v, want a LockedError with PID %d", err, cmd.Process.Pid)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("(process %d)", cmd.Process.Pid)) {
		t.Errorf("message %q", err)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatalf("Open once the other process closed: %v", err)
	}
	s.Close()
}
