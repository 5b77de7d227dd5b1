package app

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/testagents"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// focusWindow presses Alt-n and waits until window n has the keyboard.
func (h *appHarness) focusWindow(n int) {
	h.t.Helper()
	h.alt(rune('0' + n))
	h.waitCondition("window "+strconv.Itoa(n)+" in front", func() bool { return h.focusedNumber() == n })
}

// later moves the application's clock by d once every key typed so far has been handled:
// a key handled after the move would be handled later than the test meant.
func (h *appHarness) later(d time.Duration) {
	h.t.Helper()
	select {
	case <-h.ap.app.Drawn():
	case <-time.After(appDeadline):
		h.t.Fatal("the keys typed were not handled")
	}
	h.clock.Advance(d)
}

// focusedNumber returns the number of the window in front, 0 when none.
func (h *appHarness) focusedNumber() int {
	var n int
	h.onUI(func() {
		if w := h.ap.app.Focused(); w != nil {
			n = w.Number()
		}
	})
	return n
}

// pendingRequests returns how many permission requests of k wait for an answer.
func (h *appHarness) pendingRequests(k chat.Key) int {
	var n int
	h.onUI(func() { _, n = chatwin.RequestsOf(h.ap.app).Head(k) })
	return n
}

// askerApp starts the application with the demo agent alice in window 1 and the asker
// bob (testagents' "requester", which asks permission to run a command) in window 2, window
// 1 in front.
func askerApp(t *testing.T) *appHarness {
	t.Helper()
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+
		testagents.ModeEntry(t, "bob", "requester", t.TempDir()))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("alice") })
	h.onUI(func() { h.ap.openAgent("bob") })
	h.waitTitles("A Alice", "bob")
	h.focusWindow(1)
	return h
}

// Window 2's agent asks permission while the user types in window 1: what is typed lands in
// window 1, and no key of it answers, however slowly it is typed. The request waits in
// window 2, marked there and in the window list, said on the status bar and listed in
// Agent ▸ Permission requests, which jumps to it. A key typed as the window comes to the
// front does not answer; Sidekicks' own key does, a moment later.
func TestAppPermissionWaitsForItsWindow(t *testing.T) {
	h := askerApp(t)
	bob := chat.AgentKey("bob")
	if err := h.ap.agents.Service().Send(bob, "ask"); err != nil {
		t.Fatal(err)
	}
	h.waitText("bob asks permission — Alt-2", "2!")
	if h.screen.Bells() == 0 {
		t.Error("the bell did not ring for a request out of sight")
	}

	// A slow typist: a second between keys, so that no guard of time is what protects.
	for _, r := range "a quick note 1 y n Y" {
		h.later(time.Second)
		h.typeText(string(r))
	}
	h.waitWinRow("a quick note 1 y n Y")
	// Its first message gone, the status bar still says who asks.
	h.waitText("! bob asks permission — Alt-2")
	if n := h.pendingRequests(bob); n != 1 {
		t.Fatalf("%d requests wait after typing in window 1, want 1; screen:\n%s", n, h.current())
	}
	if s := h.current(); strings.Contains(s, "answers:") {
		t.Fatalf("typing in window 1 answered window 2's request:\n%s", s)
	}

	// The menu entry lists the request and jumps to its window.
	h.alt('a')
	h.waitText("Permission requests… ! 1")
	h.typeText("r")
	h.waitText("! bob: Clean the scratch folder  Alt-2")
	h.press(tcell.KeyEnter)
	h.waitCondition("window 2 in front", func() bool { return h.focusedNumber() == 2 })
	h.waitText("! bob asks permission", "$ "+testagents.RequesterCommand, "execute · "+testagents.RequesterPath+":3",
		"1  allow it once", "2  quick, always allow", "3  no", "4  every time, reject")

	// A key typed as the window came to the front is typed, not an answer.
	h.typeText("3")
	h.waitWinRow("3")
	h.press(tcell.KeyBackspace)
	if n := h.pendingRequests(bob); n != 1 {
		t.Fatalf("a key typed at once answered the request (%d waiting)", n)
	}
	h.later(time.Second)
	h.typeText("n") // reject once: Sidekicks' key, whatever the options are named
	h.waitText("answers: reject")
	if n := h.pendingRequests(bob); n != 0 {
		t.Errorf("%d requests still wait", n)
	}
	h.waitCondition("window 2 no longer marked", func() bool {
		return !strings.Contains(h.current(), "2!")
	})
}

// A flood of requests is one request on screen, with how many wait, one entry of the
// menu and one notice in the conversation; X rejects them all, and those that come in the
// following waves of the same turn.
func TestAppPermissionFlood(t *testing.T) {
	h := askerApp(t)
	h.focusWindow(2)
	bob := chat.AgentKey("bob")
	// 3,000 is a dozen waves; the end-to-end test sends 10,000 (this one runs with -race too).
	const flood = 3_000
	if err := h.ap.agents.Service().Send(bob, "flood "+strconv.Itoa(flood)); err != nil {
		t.Fatal(err)
	}
	// The connection reads a wave of requests at a time (acp.DefaultMaxAgentRequests).
	h.waitCondition("a wave of requests waiting", func() bool { return h.pendingRequests(bob) == acp.DefaultMaxAgentRequests })
	h.later(time.Second)
	s := h.waitText("+255 more waiting", "X: reject all 256")
	if n := strings.Count(s, "Clean the scratch folder"); n > 3 {
		t.Errorf("the flood shows %d times on screen:\n%s", n, s)
	}
	if n := strings.Count(s, "bob asks permission:"); n != 1 {
		t.Errorf("%d notices of the flood in the conversation, want 1:\n%s", n, s)
	}
	var entries int
	h.onUI(func() { entries = len(chatwin.RequestsOf(h.ap.app).Pending()) })
	if entries != 1 {
		t.Errorf("the menu would list %d entries, want 1", entries)
	}
	h.typeText("X")
	h.waitText("answers: reject×"+strconv.Itoa(flood), "bob asked permission "+strconv.Itoa(flood)+" times")
}

// What a hostile agent puts in its request (title, option names) reaches the window made
// safe: no escape sequence, control or bidirectional character; the request still works.
func TestAppPermissionHostileText(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+testagents.ModeEntry(t, "eve", "hostile", t.TempDir()))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("eve") })
	h.waitTitles("eve")
	if err := h.ap.agents.Service().Send(chat.AgentKey("eve"), "hi"); err != nil {
		t.Fatal(err)
	}
	s := h.waitText("! eve asks permission", "1  Allow Ared", "2  Reject Ared")
	for _, r := range s {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("%U reached the screen:\n%s", r, s)
		}
	}
	h.later(time.Second)
	h.typeText("y")
	h.waitText("permission allowed")
}
