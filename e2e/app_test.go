package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// appWait bounds each wait for the application's screen.
const appWait = 15 * time.Second

// appConfig writes a configuration with two demo agents (this build of sidekicks, run as
// demo-agent) and two declared channels, and returns its path.
func appConfig(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nagents:\n")
	for _, a := range []struct{ name, title, icon string }{{"alice", "Alice", "A"}, {"bob", "Bob", "B"}} {
		fmt.Fprintf(&b, "  - name: %s\n    title: %s\n    icon: %s\n    command: %q\n    args: [demo-agent, --name, %s, --delay, \"0\"]\n",
			a.name, a.title, a.icon, binary, a.title)
	}
	b.WriteString("channels:\n  - name: général\n    description: Both demo agents\n    agents: [alice, bob]\n  - name: ops\n    agents: [bob]\n")
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// focusedFrame returns the title part of the focused window's top edge (the one drawn
// with double lines), "" when no window is focused.
func focusedFrame(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if i := strings.Index(line, "╔[x]"); i >= 0 {
			rest := line[i:]
			if j := strings.Index(rest, "╗"); j >= 0 {
				return rest[:j]
			}
		}
	}
	return ""
}

// waitUntil waits until the screen satisfies ok.
func waitUntil(t *testing.T, term *terminal, what string, ok func(screen string) bool) {
	t.Helper()
	deadline := time.NewTimer(appWait)
	defer deadline.Stop()
	for {
		if ok(term.screen()) {
			return
		}
		select {
		case <-term.changed:
		case <-deadline.C:
			t.Fatalf("the screen never showed %s; it shows:\n%s", what, term.screen())
		}
	}
}

// waitFocus waits until the focused window's top edge holds title.
func waitFocus(t *testing.T, term *terminal, title string) {
	t.Helper()
	waitUntil(t, term, "the focus on "+title, func(s string) bool { return strings.Contains(focusedFrame(s), title) })
}

// waitGone waits until the screen no longer shows text.
func waitGone(t *testing.T, term *terminal, text string) {
	t.Helper()
	waitUntil(t, term, "no "+text, func(s string) bool { return !strings.Contains(s, text) })
}

func TestAppInTerminal(t *testing.T) {
	env := isolate(t)
	env = append(env, "SIDEKICKS_DEMO_STATE="+t.TempDir())
	var state string
	for _, kv := range env {
		if strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			state = strings.TrimPrefix(kv, "XDG_STATE_HOME=")
		}
	}
	dir := t.TempDir()
	cfg := appConfig(t, dir)

	term := startTerminal(t, env, dir, 120, 36, binary, "--config", cfg)
	term.waitFor("Sidekicks   Channels   Agent   Window   Help", appWait)
	term.waitFor("#général", appWait)
	term.waitFor("A Alice  @alice — stopped", appWait)
	term.waitFor("B Bob  @bob — stopped", appWait)
	waitFocus(t, term, "#général")
	if s := term.screen(); !strings.Contains(s, " #ops ") || !strings.Contains(s, "Both demo agents") {
		t.Fatalf("the declared channels' windows are not both there:\n%s", s)
	}

	// F10 opens the first menu, Esc closes it.
	term.keys("F10")
	term.waitFor("Reload configuration", appWait)
	term.keys("Escape")
	waitGone(t, term, "Reload configuration")

	// Alt-A opens the Agent menu; Enter opens the first agent's window.
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	term.waitFor("Enter Send", appWait) // the agent window's keys
	waitFocus(t, term, "A Alice")

	// Alt-0 lists the windows; Esc closes the list.
	term.keys("M-0")
	term.waitFor("3  A Alice", appWait)
	if s := term.screen(); !strings.Contains(s, "1  #général") || !strings.Contains(s, "2  #ops") {
		t.Fatalf("the window list:\n%s", s)
	}
	term.keys("Escape")
	waitGone(t, term, "3  A Alice")

	// Alt-1 and Alt-2 jump to windows 1 and 2.
	term.keys("M-1")
	waitFocus(t, term, "#général")
	term.keys("M-2")
	waitFocus(t, term, "#ops")

	// Alt-X quits: status 0, the terminal restored (the application's screen is gone).
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
	if s := term.screen(); strings.Contains(s, "Channels") || strings.Contains(s, "═") {
		t.Errorf("the terminal still shows the application after it ended:\n%s", s)
	}
	logData, err := os.ReadFile(filepath.Join(state, "sidekicks", "logs", "sidekicks.log"))
	if err != nil || !strings.Contains(string(logData), "every agent stopped") {
		t.Errorf("Sidekicks' log: %v\n%s", err, logData)
	}

	// A second start on the same configuration shows the same windows, #ops focused.
	term = startTerminal(t, env, dir, 120, 36, binary, "--config", cfg)
	term.waitFor("A Alice  @alice", appWait)
	waitFocus(t, term, "#ops")
	// A frame may be captured half drawn: wait for the whole of it.
	waitUntil(t, term, "the second start's windows", func(s string) bool {
		for _, want := range []string{" #général ", " 1 ", " 2 ", " 3 ", " A Alice "} {
			if !strings.Contains(s, want) {
				return false
			}
		}
		return true
	})
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("second run: exit status %d", code)
	}
}

func TestAppSecondInstanceRefused(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	cfg := appConfig(t, dir)
	term := startTerminal(t, env, dir, 100, 30, binary, "--config", cfg)
	term.waitFor("#général", appWait)
	r := runBinary(t, env, dir, appWait, "--config", cfg)
	if r.code != 1 || !strings.Contains(r.stderr, "is in use by another Sidekicks (process ") {
		t.Errorf("second instance: exit %d, stderr %q", r.code, r.stderr)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}
