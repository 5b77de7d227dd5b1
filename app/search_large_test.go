package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
	"github.com/gdamore/tcell/v2"
)

// floodHistory writes a configuration whose agent alice has, in her history, an entry of a
// megabyte of the same words (as the demo agent's /floodlines writes), and returns its path.
func floodHistory(t *testing.T, dir string) string {
	t.Helper()
	path, st, conv := aliceHistory(t, dir)
	defer st.Close()
	at := time.Date(2026, 2, 3, 8, 0, 0, 0, time.Local)
	text := strings.Repeat("flood line of the demo agent\n", (1<<20)/29)
	if _, err := st.SaveEntry(conv, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: text, Created: at, Updated: at, Done: true}); err != nil {
		t.Fatal(err)
	}
	return path
}

// openSearch opens Search history (Alt-S S) and types q.
func openSearch(h *appHarness, q string) {
	h.t.Helper()
	h.alt('s')
	h.waitText("Search history…")
	h.typeText("s")
	h.typeText(q)
}

// Searching a history that holds a megabyte entry answers (FTS5's snippet took minutes on
// it, and every later search waited behind it).
func TestSearchLargeEntryAnswers(t *testing.T) {
	dir := appEnv(t)
	h := startApp(t, floodHistory(t, dir), dir)
	openSearch(h, "flood")
	s := h.waitText("1 found, newest first.")
	if !strings.Contains(s, "flood line of the demo agent") {
		t.Fatalf("the hit:\n%s", s)
	}
	h.typeText(" zzyzx")
	h.waitText("Nothing found.")
	h.press(tcell.KeyEscape)
	h.waitGone("Search history")
	h.quit()
}

// slowSearches makes every search for "slow" last until it is cancelled, and returns the
// channels told of each one started and cancelled.
func slowSearches(t *testing.T) (started, cancelled <-chan string) {
	start, stop := make(chan string, 16), make(chan string, 16)
	real := searchHistory
	searchHistory = func(st *store.Store, ctx context.Context, q string, limit int) ([]store.Hit, error) {
		if !strings.Contains(q, "slow") {
			return real(st, ctx, q, limit)
		}
		start <- q
		<-ctx.Done()
		stop <- q
		return nil, ctx.Err()
	}
	t.Cleanup(func() { searchHistory = real })
	return start, stop
}

// waitSearch waits for the slow search for q to be told on ch.
func waitSearch(t *testing.T, ch <-chan string, q string) {
	t.Helper()
	deadline := time.After(appDeadline)
	for {
		select {
		case got := <-ch:
			if got == q {
				return
			}
		case <-deadline:
			t.Fatalf("the search for %q was not told", q)
		}
	}
}

// A newer query cancels a search under way, and is answered; closing the dialog cancels
// the search under way; quitting (Alt-X, or a signal) cancels the one under way and never
// waits for it.
func TestSearchCancelledAndQuit(t *testing.T) {
	started, cancelled := slowSearches(t)
	dir := appEnv(t)
	h := startApp(t, floodHistory(t, dir), dir)
	openSearch(h, "slow")
	waitSearch(t, started, "slow")
	h.waitText("Searching…")
	for range 4 {
		h.press(tcell.KeyBackspace)
	}
	h.typeText("flood")
	waitSearch(t, cancelled, "slow")
	h.waitText("1 found, newest first.")
	h.typeText(" slow")
	waitSearch(t, started, "flood slow")
	h.press(tcell.KeyEscape)
	waitSearch(t, cancelled, "flood slow")
	openSearch(h, "slow")
	waitSearch(t, started, "slow")
	// Quitting with the dialog open, as a signal does, while the search runs.
	h.onUI(h.ap.quit)
	if r := h.wait(); r.code != 0 {
		t.Fatalf("exit status %d", r.code)
	}
	waitSearch(t, cancelled, "slow")
}

// aliceHistory writes in dir a configuration with the demo agent alice, and returns its path,
// its history open (the caller closes it) and alice's conversation there.
func aliceHistory(t *testing.T, dir string) (string, *store.Store, store.ConvID) {
	t.Helper()
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	st := openStoreAt(t, path)
	conv, err := st.AgentConversation("alice")
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	return path, st, conv
}
