package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// sessionsConfig writes a configuration with the session test agent gem (it lists past
// sessions, resumes and closes them, and asks for forms and links), and returns its path.
func sessionsConfig(t *testing.T, dir, mode string) string {
	t.Helper()
	return agentsConfig(t, dir, testagents.ModeEntry(t, "gem", mode, t.TempDir()))
}

// agentsConfig writes a configuration of the agents' entries in dir, and returns its path.
func agentsConfig(t *testing.T, dir, entries string) string {
	t.Helper()
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte("version: 1\nagents:\n"+entries), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// startGem starts Sidekicks in a 120-column terminal of the given height with gem, a
// session test agent in mode, and opens gem's window.
func startGem(t *testing.T, mode string, height int) *terminal {
	t.Helper()
	dir := t.TempDir()
	term := startTerminal(t, isolate(t), dir, 120, height, binary, "--config", sessionsConfig(t, dir, mode))
	term.waitFor("No window open", appWait)
	openFromAgentMenu(t, term, 0, "gem")
	return term
}

// The agent asks for a form: the dialog shows its fields, refuses what is not valid with
// a reason, and sends what the user filled in. A request the agent cancels closes its
// dialog by itself.
func TestElicitationFormInTerminal(t *testing.T) {
	term := startGem(t, "sessions", 45)
	term.typeText("elicit form")
	term.keys("Enter")
	term.waitFor("gem asks: Deploy", appWait)
	s := term.waitFor("( ) Europe", appWait)
	for _, want := range []string{"Deploy settings", "Name *", "Replicas", "( ) America", "[ ] fast", "[ Send ]", "[ Decline ]"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the form has no %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "[2J") {
		t.Fatalf("the agent's escape sequence reached the screen:\n%s", s)
	}
	// Sent with the name missing, then too short.
	term.keys("Enter")
	term.waitFor("this field is required", appWait)
	term.typeText("w")
	term.keys("Enter")
	term.waitFor("at least 2 characters", appWait)
	term.typeText("eb")
	for i := 0; i < 5; i++ { // email, replicas, ratio, confirm, region
		term.keys("Tab")
	}
	term.keys("Right", "Space", "Tab", "Space", "Enter")
	s = term.waitFor(`"region":"us"`, appWait)
	for _, want := range []string{`"action":"accept"`, `"name":"web"`, `"replicas":2`, `"tags":["fast"]`} {
		if !strings.Contains(s, want) {
			t.Fatalf("the agent got no %s:\n%s", want, s)
		}
	}
	waitGone(t, term, "gem asks")

	// The agent asks, then cancels: the dialog goes away without a key.
	term.typeText("elicit cancelled 1500")
	term.keys("Enter")
	term.waitFor("A question", appWait)
	term.waitFor(`answer: {"action":"cancel"}`, appWait)
	waitGone(t, term, "A question")

	// So does a permission request.
	term.typeText("perm cancelled 1500")
	term.keys("Enter")
	term.waitFor("1…1: answer", appWait)
	term.waitFor(`"outcome":"cancelled"`, appWait)
	waitGone(t, term, "1…1: answer")
}

// An agent that floods the user with questions gets three on screen at a time, the others
// cancelled at once.
func TestElicitationFloodInTerminal(t *testing.T) {
	term := startGem(t, "sessions", 30)
	term.typeText("elicit flood 50")
	term.keys("Enter")
	// Three dialogs, one over the other: the first declined, the others cancelled.
	question := regexp.MustCompile(`Question \d+`)
	for i, answer := range [][]string{{"Tab", "Right", "Enter"}, {"Escape"}, {"Escape"}} {
		q := question.FindString(term.waitFor("gem asks", appWait))
		if q == "" {
			t.Fatalf("dialog %d shows no question:\n%s", i+1, term.screen())
		}
		term.keys(answer...)
		waitGone(t, term, q+" ")
	}
	term.waitFor("answers: accept×0, decline×1, cancel×49", appWait)
	waitGone(t, term, "gem asks")
}

// The agent asks to open a link: the dialog shows it, Continue accepts, and the wait
// that follows closes when the agent says the step is complete.
func TestElicitationURLInTerminal(t *testing.T) {
	term := startGem(t, "sessions", 40)
	term.typeText("elicit url")
	term.keys("Enter")
	term.waitFor(testagents.ElicitURL, appWait)
	term.waitFor("[ Continue ]", 0)
	term.keys("Enter")
	term.waitFor("gem is waiting", appWait)
	term.waitFor(`answer: {"action":"accept"}`, appWait)
	// elicitation/complete came before the reply: the wait is closed.
	waitGone(t, term, "gem is waiting")
}

// openSessions opens Agent ▸ Sessions… in gem's window, and returns the screen with the
// list.
func openSessions(term *terminal) string {
	term.keys("M-a")
	term.waitFor("Sessions…", appWait)
	term.keys("e")
	return term.waitFor("Sessions of gem", appWait)
}

// Agent ▸ Sessions… lists the agent's sessions, most recent first, with their dates and
// folders; the one chosen continues in the agent's window, whose frame shows the session's
// title; one of another folder is refused with the reason. The usage of the session shows
// on the status line.
func TestSessionsListInTerminal(t *testing.T) {
	term := startGem(t, "sessions", 40)
	term.typeText("title First steps")
	term.keys("Enter")
	term.waitFor("gem — First steps", appWait)
	term.waitFor("4.3k of 100k tokens · 0.25 USD", appWait)

	s := openSessions(term)
	release, docs, parser := strings.Index(s, "Release 2.0"), strings.Index(s, "Write the docs"), strings.Index(s, "Fix the parser")
	if release < 0 || docs < release || parser < docs {
		t.Fatalf("the sessions are not listed most recent first:\n%s", s)
	}
	for _, want := range []string{"2026-11-21", "Elsewhere", "(another folder)"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the list has no %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "[31m") {
		t.Fatalf("a title's escape sequence reached the screen:\n%s", s)
	}
	// Another folder: refused, with the reason.
	term.typeText("Elsewhere")
	term.keys("Enter")
	term.waitFor("cannot continue here", appWait)

	openSessions(term)
	term.typeText("Write")
	term.keys("Enter")
	term.waitFor("gem continues its session “Write the docs”", appWait)
	term.waitFor("gem — Write the docs", appWait)
	term.waitFor("1.2k of 200k tokens", appWait)
	term.typeText("heard")
	term.keys("Enter")
	term.waitFor("heard: resumed past-2, closed sessions-1", appWait)
}

// gemini-cli's commands have a space in their names: the / list narrows past the space,
// and Tab completes the whole name.
func TestCommandNamesWithASpaceInTerminal(t *testing.T) {
	term := startGem(t, "sessions", 30)
	term.typeText("title x") // the first turn opens the session, which announces the commands
	term.keys("Enter")
	term.waitFor("titled", appWait)
	term.typeText("/memory ")
	s := term.waitFor("/memory show", appWait)
	if !strings.Contains(s, "/memory list") || !strings.Contains(s, "/memory add") || strings.Contains(s, "/memo ") {
		t.Fatalf("the list after \"/memory \" is not the memory commands:\n%s", s)
	}
	term.typeText("l")
	waitGone(t, term, "/memory show")
	term.keys("Tab")
	waitRow(t, term, "/memory list")
	term.keys("Enter")
	term.waitFor("unknown: /memory list", appWait)
}

// An agent slow to start, that says so on its stderr, is waited for: its window says for
// how long it has been starting, and it answers in the end.
func TestSlowStartIsShownInTerminal(t *testing.T) {
	dir := t.TempDir()
	entry := strings.Replace(testagents.ModeEntry(t, "slow", "slow-start", t.TempDir()),
		"    env:\n", "    env:\n      "+testagents.SlowStartEnv+": \"3500,4000\"\n", 1)
	term := startTerminal(t, isolate(t), dir, 100, 24, binary, "--config", agentsConfig(t, dir, entry))
	term.waitFor("No window open", appWait)
	openFromAgentMenu(t, term, 0, "slow")
	term.waitFor("starting… 2 s", appWait)
	waitGone(t, term, "starting…")
	term.typeText("hello")
	term.keys("Enter")
	waitRow(t, term, "hello")
	if s := term.screen(); strings.Contains(s, "did not answer initialize") {
		t.Fatalf("the slow agent failed to start:\n%s", s)
	}
}

// An agent that does not list its sessions says so on the status bar.
func TestSessionsOfAnAgentThatListsNoneInTerminal(t *testing.T) {
	term := startGem(t, "midstream", 24)
	term.keys("M-a")
	term.waitFor("Sessions…", appWait)
	term.keys("e")
	term.waitFor("gem does not list its sessions (no session/list)", appWait)
}
