package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// agentWinConfig writes a configuration with the demo agent alice (this build of
// sidekicks, run as demo-agent, streaming without pauses) working in a workspace that holds
// a README.md, and returns its path and the workspace.
func agentWinConfig(t *testing.T, dir string) (path, workspace string) {
	t.Helper()
	workspace = t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "README.md"), []byte("# The demo workspace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("version: 1\nagents:\n  - name: alice\n    title: Alice\n    icon: A\n    command: %q\n"+
		"    args: [demo-agent, --name, Alice, --delay, \"0\"]\n    workspace: %q\n", binary, workspace)
	path = filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, workspace
}

// windowRows returns the rows of the windows on the screen: each screen row cut at the
// frames' side borders, without the spaces around.
func windowRows(screen string) []string {
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '│' || r == '║' }) {
			rows = append(rows, strings.TrimSpace(part))
		}
	}
	return rows
}

// waitRow waits until a window's row reads exactly s.
func waitRow(t *testing.T, term *terminal, s string) {
	t.Helper()
	waitUntil(t, term, fmt.Sprintf("a row %q", s), func(screen string) bool {
		for _, r := range windowRows(screen) {
			if r == s {
				return true
			}
		}
		return false
	})
}

// turnOver reports whether the focused agent window has no turn in progress: the status
// bar no longer offers Esc to cancel one.
func turnOver(screen string) bool { return !strings.Contains(screen, "Esc Cancel turn") }

// sgr matches a Select Graphic Rendition sequence.
var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// styleAt returns the SGR sequences in effect (since the last reset) where text first
// starts on a row of the pane (capture-pane -e); false when no row holds text.
func styleAt(pane, text string) (string, bool) {
	for _, line := range strings.Split(pane, "\n") {
		var plain []rune
		var styles []string // the style of each rune of plain
		style := ""
		for line != "" {
			if loc := sgr.FindStringIndex(line); loc != nil && loc[0] == 0 {
				if seq := line[:loc[1]]; seq == "\x1b[0m" || seq == "\x1b[m" {
					style = ""
				} else {
					style += seq
				}
				line = line[loc[1]:]
				continue
			}
			r, size := utf8.DecodeRuneInString(line)
			plain, styles = append(plain, r), append(styles, style)
			line = line[size:]
		}
		if i := strings.Index(string(plain), text); i >= 0 {
			return styles[utf8.RuneCountInString(string(plain)[:i])], true
		}
	}
	return "", false
}

// coloured returns the pane with its colours and attributes (capture-pane -e).
func (term *terminal) coloured() string {
	term.t.Helper()
	out, err := exec.Command("tmux", "-L", term.socket, "capture-pane", "-e", "-p", "-t", "0").CombinedOutput()
	if err != nil {
		term.t.Fatalf("capture-pane -e: %v\n%s", err, out)
	}
	return string(out)
}

func TestAgentWindowInTerminal(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	cfg, workspace := agentWinConfig(t, dir)

	term := startTerminal(t, env, dir, 120, 40, binary, "--config", cfg)
	term.waitFor("No window open", appWait)

	// The Agent menu opens alice's window.
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "A Alice")

	// A prompt naming a language: the streamed reply holds a highlighted code block.
	term.typeText("show me some python")
	term.keys("Enter")
	term.waitFor("def greet(name: str) -> str:", appWait)
	term.waitFor("Type /help to see my commands.", appWait)
	waitUntil(t, term, "the turn over", turnOver)
	waitUntil(t, term, "def highlighted", func(string) bool {
		pane := term.coloured()
		def, ok1 := styleAt(pane, "def greet")
		name, ok2 := styleAt(pane, "greet(name")
		prose, ok3 := styleAt(pane, "I am Alice, a demo agent")
		return ok1 && ok2 && ok3 && def != name && def != prose
	})

	// Copy the code block: to the conversation, the cursor up into it, Ctrl-C.
	term.keys("Tab", "Up", "Up", "Up", "C-c")
	term.waitFor("7 lines copied", appWait)
	term.keys("Tab")

	// A command.
	term.typeText("/echo hi")
	term.keys("Enter")
	waitRow(t, term, "hi")
	waitUntil(t, term, "the turn over", turnOver)

	// A file mention, completed with Tab: the agent receives the file.
	term.typeText("sum up @REA")
	waitRow(t, term, "README.md")
	term.keys("Tab")
	waitRow(t, term, "sum up @README.md")
	term.keys("Enter")
	term.waitFor("You sent me 1 file(s):", appWait)
	term.waitFor("README.md, embedded, 21 bytes", appWait)
	waitUntil(t, term, "the turn over", turnOver)

	// A permission, granted with its key: the file is written in the workspace.
	term.typeText("/write hello.txt Hello")
	term.keys("Enter")
	term.waitFor("A Alice asks permission", appWait)
	term.waitFor("1  Allow", appWait)
	term.waitFor("1…2: answer", appWait) // the keys answer once the request has been in sight a moment
	term.keys("1")
	term.waitFor("I created hello.txt", appWait)
	if data, err := os.ReadFile(filepath.Join(workspace, "hello.txt")); err != nil || string(data) != "Hello" {
		t.Fatalf("hello.txt: %q, %v", data, err)
	}
	waitUntil(t, term, "the turn over", turnOver)

	// Esc cancels a slow reply.
	term.typeText("/slow")
	term.keys("Enter")
	term.waitFor("Here comes a slow stream", appWait)
	term.keys("Escape")
	term.waitFor("alice: turn cancelled", appWait)

	// Ctrl-W closes the window; Alt-X quits.
	term.keys("C-w")
	term.waitFor("No window open", appWait)
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}

	// Started again, alice's window shows the history, and her session goes on.
	term = startTerminal(t, env, dir, 120, 40, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	term.waitFor("I created hello.txt", appWait)
	term.waitFor("alice: turn cancelled", appWait)
	term.typeText("/echo again")
	term.keys("Enter")
	waitRow(t, term, "again")
	if s := term.screen(); strings.Contains(s, "new session") {
		t.Errorf("a new session started after the restart:\n%s", s)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("second run: exit status %d", code)
	}
}
