package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// channelConfig writes a configuration with the demo agents alice and bob (this build of
// sidekicks, run as demo-agent, streaming without pauses) in one declared channel,
// #général, and returns its path.
func channelConfig(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nagents:\n")
	for _, a := range []struct{ name, title, icon string }{{"alice", "Alice", "A"}, {"bob", "Bob", "B"}} {
		fmt.Fprintf(&b, "  - name: %s\n    title: %s\n    icon: %s\n    command: %q\n    args: [demo-agent, --name, %s, --delay, \"0\"]\n",
			a.name, a.title, a.icon, binary, a.title)
	}
	b.WriteString("channels:\n  - name: général\n    description: Both demo agents\n    agents: [alice, bob]\n")
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// screenLines returns the screen's rows with the window frame's borders and the spaces
// around them removed.
func screenLines(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		out = append(out, strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "║│")))
	}
	return out
}

// hasLine reports whether the screen has a row that reads exactly s once the frame is
// removed.
func hasLine(screen, s string) bool {
	for _, l := range screenLines(screen) {
		if l == s {
			return true
		}
	}
	return false
}

// idle reports whether no turn is in progress in the focused window: the status bar no
// longer offers to cancel one.
func idle(screen string) bool { return !strings.Contains(screen, "Cancel turn") }

func TestChannelInTerminal(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir := t.TempDir()
	cfg := channelConfig(t, dir)

	term := startTerminal(t, env, dir, 140, 100, binary, "--config", cfg)
	waitFocus(t, term, "#général")
	term.waitFor("Both demo agents", appWait)
	term.waitFor("A Alice  @alice — stopped", appWait)

	// Both addressed at once: both answer, each under its own label.
	term.typeText("@alice @bob hello")
	term.keys("Enter")
	term.waitFor("I am Alice, a demo agent", appWait)
	term.waitFor("I am Bob, a demo agent", appWait)
	waitUntil(t, term, "both turns over", func(s string) bool {
		return strings.Count(s, "to see my commands.") == 2 && idle(s)
	})

	// A command for one agent opens its prompt: /heard shows it alone, without the
	// catch-up, which waits for alice's next message.
	term.typeText("/alice:heard")
	term.keys("Enter")
	s := term.waitFor("Here is every block of the prompt I received", appWait)
	waitUntil(t, term, "the /heard turn over", idle)
	s = term.screen()
	if !strings.Contains(s, "--- block 1: text ---") || strings.Contains(s, "--- block 2") || strings.Contains(s, "Catch-up:") {
		t.Errorf("alice's /heard should show the command alone:\n%s", s)
	}

	// Her next message begins with the catch-up: the demo agent quotes it back.
	term.typeText("@alice what did I miss?")
	term.keys("Enter")
	term.waitFor("Catch-up: what was said in this channel that you have not seen yet", appWait)
	// Her answer, which began with the catch-up, is over once no turn runs (how many of its
	// lines show depends on how her Markdown quote of bob's answer is drawn).
	waitUntil(t, term, "alice's answer over", idle)

	// A command for one agent.
	term.typeText("/alice:echo hi")
	term.keys("Enter")
	waitUntil(t, term, "alice's echo", func(s string) bool {
		lines := screenLines(s)
		for i, l := range lines {
			if l == "/alice:echo hi" {
				for _, after := range lines[i+1:] {
					if after == "hi" {
						return true
					}
				}
			}
		}
		return false
	})

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}

	// Again: the channel comes back as it was.
	term = startTerminal(t, env, dir, 140, 100, binary, "--config", cfg)
	waitFocus(t, term, "#général")
	// A frame may be captured half drawn: wait for the whole of it.
	waitUntil(t, term, "the channel as it was, alice's echo included", func(s string) bool {
		for _, want := range []string{"/alice:echo hi", "@alice @bob hello", "/alice:heard", "Catch-up: what was said"} {
			if !strings.Contains(s, want) {
				return false
			}
		}
		return hasLine(s, "hi")
	})
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("second run: exit status %d", code)
	}
}
