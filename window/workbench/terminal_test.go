package workbench

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// shellScript is a $SHELL that records where it ran, with which env, and exits at once.
// It writes its record last, in one write, so that a whole record means the shell is done.
const shellScript = `#!/bin/sh
echo "shell output"
printf '%s\n%s\n' "$PWD" "$AGENT_TAG" > "$SHELL_RECORD"
`

func TestTerminalLocal(t *testing.T) {
	out := quietTerminal(t)
	dir := t.TempDir()
	shell := filepath.Join(dir, "shell")
	if err := os.WriteFile(shell, []byte(shellScript), 0o755); err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(dir, "record")
	t.Setenv("SHELL", shell)
	t.Setenv("SHELL_RECORD", record)

	s := newPanelSetup(t, i18n.English, true)
	h := s.h
	s.selectAgent("alice")
	// The panel has settled once it shows the supervisor's limit (its first states event).
	h.waitText("0 of 2 running")
	before := h.waitRow("Alice", "stopped").text()
	h.typeText("t")
	waitFile(t, h, record)
	// The shell ran in the workspace with the agent's env, on the terminal lent to it.
	got := strings.Split(strings.TrimSpace(readFile(t, record)), "\n")
	if want := []string{s.agents["alice"].Workspace, "alice"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the shell saw %q, want %q", got, want)
	}
	term := readFile(t, out)
	if !strings.Contains(term, "Sidekicks: a shell in the folder of alice.") || !strings.Contains(term, "shell output") {
		t.Errorf("the terminal got %q", term)
	}
	// The screen comes back as it was.
	h.do(func() {})
	if after := h.waitFrame("a frame", func(screenFrame) bool { return true }).text(); after != before {
		t.Errorf("the screen did not come back as it was:\nbefore\n%s\nafter\n%s", before, after)
	}

	// A shell that cannot start says so.
	t.Setenv("SHELL", filepath.Join(dir, "no-such-shell"))
	h.typeText("t")
	h.waitText("Could not open the terminal of Alice")
}

// waitFile waits for the shell's whole record (the file exists from the moment the shell
// opens it, before it writes): the screen is redrawn when the shell has ended, so each
// frame is a moment to look again.
func waitFile(t *testing.T, h *harness, p string) {
	t.Helper()
	h.waitFrame("the shell's record", func(screenFrame) bool {
		b, err := os.ReadFile(p)
		return err == nil && strings.HasSuffix(string(b), "\n")
	})
}

func TestTerminalContainerAndSandbox(t *testing.T) {
	quietTerminal(t)
	s := newPanelSetup(t, i18n.English, true)
	h := s.h
	for _, tt := range []struct {
		agent string
		want  func(a config.Agent) []string
	}{
		{"bob", func(a config.Agent) []string {
			return []string{"docker", "exec", "-it", "-w", a.Runtime.WorkspacePath, "box", "sh"}
		}},
		{"carol", func(a config.Agent) []string {
			return []string{"sbx", "exec", "-it", "sandy", "sh", "-c", `cd -- "$1" && exec sh`, "sh", a.Runtime.WorkspacePath}
		}},
	} {
		s.eng.calls()
		s.selectAgent(tt.agent)
		h.typeText("t")
		// The engine is asked first (runtime.CheckEngine), then the terminal runs.
		var calls []call
		h.waitFrame("the terminal's command", func(screenFrame) bool {
			calls = append(calls, s.eng.calls()...)
			return len(calls) > 1
		})
		if want := tt.want(s.agents[tt.agent]); !reflect.DeepEqual(calls[1].args, want) {
			t.Errorf("%s: the terminal ran %q, want %q", tt.agent, calls[1].args, want)
		}
	}
}

// An engine that does not answer is said in the status bar once the check's time is up,
// in the user's language (as much of it as the status bar shows), and no terminal takes
// the screen.
func TestTerminalEngineDoesNotAnswer(t *testing.T) {
	out := quietTerminal(t)
	saved := terminalCheckTimeout
	terminalCheckTimeout = 300 * time.Millisecond
	t.Cleanup(func() { terminalCheckTimeout = saved })
	t.Setenv("FAKE_ENGINE_HANG", "1")
	t.Setenv("DOCKER_HOST", "ssh://b")
	for _, tt := range []struct {
		lang        i18n.Lang
		agent, want string
	}{
		{i18n.English, "bob", "Could not open the terminal of Bob: the Docker engine at ssh://b did not answer within 300 ms"},
		{i18n.French, "carol", "Impossible d'ouvrir le terminal de Carol : le moteur sbx n'a pas répondu en 300 ms (sbx ls)"},
	} {
		s := newPanelSetup(t, tt.lang, true)
		h := s.h
		s.selectAgent(tt.agent)
		h.typeText("t")
		h.waitText(tt.want)
		for _, c := range s.eng.calls() {
			if len(c.args) > 1 && c.args[1] == "exec" {
				t.Errorf("%s: the terminal ran %q on an engine that does not answer", tt.agent, c.args)
			}
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the terminal was lent (%v)", err)
	}
}
