package store

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// The test binary re-executes itself as a helper process when helperEnv names a role: a
// writer killed mid-write by the crash test, or a second Sidekicks holding the lock.
const (
	helperEnv   = "SIDEKICKS_STORE_TEST_HELPER"
	helperDBEnv = "SIDEKICKS_STORE_TEST_DB"
)

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		code := m.Run()
		removeFixture()
		os.Exit(code)
	case "crash-writer":
		os.Exit(crashWriter(os.Getenv(helperDBEnv)))
	case "hold-lock":
		os.Exit(holdLock(func() (*Store, error) { return Open(os.Getenv(helperDBEnv)) }))
	case "hold-config": // helperDBEnv names a configuration file
		os.Exit(holdLock(func() (*Store, error) { return OpenConfig(os.Getenv(helperDBEnv)) }))
	default:
		fmt.Fprintln(os.Stderr, "unknown helper", os.Getenv(helperEnv))
		os.Exit(2)
	}
}

// holdLock opens the store, says "ready <pid>" and keeps it open until stdin closes.
func holdLock(open func() (*Store, error)) int {
	s, err := open()
	if err != nil {
		fmt.Printf("error %v\n", err)
		return 1
	}
	fmt.Printf("ready %d\n", os.Getpid())
	bufio.NewReader(os.Stdin).ReadString('\n')
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// newTestStore opens a store in a fresh folder, closed at the end of the test.
func newTestStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "history", "test.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// testTime is a fixed instant with nanoseconds, so that rounding would show.
var testTime = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)

// textEntry is a finished entry of kind with text, at testTime plus i seconds.
func textEntry(kind chat.EntryKind, author, text string, i int) chat.Entry {
	t := testTime.Add(time.Duration(i) * time.Second)
	return chat.Entry{Kind: kind, Author: author, Turn: int64(i), Created: t, Updated: t, Text: text, Done: true}
}

// mustSave saves e in conv and returns its id.
func mustSave(t testing.TB, s *Store, conv ConvID, e chat.Entry) int64 {
	t.Helper()
	id, err := s.SaveEntry(conv, e)
	if err != nil {
		t.Fatalf("SaveEntry: %v", err)
	}
	return id
}

// texts returns the texts of entries, in order.
func texts(entries []chat.Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Text
	}
	return out
}

// equalStrings reports whether a and b hold the same strings in the same order.
func equalStrings(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}
