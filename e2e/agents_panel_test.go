package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// panelShell writes the shell the Agents panel's terminal runs ($SHELL): it says where it
// runs and leaves a mark, then waits for a line, so that the test sees the terminal lent
// to it before it gives it back.
func panelShell(t *testing.T, mark string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shell.sh")
	script := fmt.Sprintf("#!/bin/sh\necho \"PANEL-SHELL in $(pwd)\"\npwd > %q\nread line\n", mark)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// notWorking reports whether no turn is in progress in the focused window: the status bar
// does not offer to cancel one.
func notWorking(screen string) bool { return !strings.Contains(screen, "Cancel turn") }

func TestAgentsPanelInTerminal(t *testing.T) {
	dir := t.TempDir()
	workspace := filepath.Join(dir, "scout")
	for name, text := range map[string]string{"AGENTS.md": "# Scout\n", "notes.md": "Some notes.\n"} {
		if err := os.MkdirAll(workspace, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(workspace, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mark := filepath.Join(t.TempDir(), "shell ran in")
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir())
	cfg := filepath.Join(dir, "sidekicks.yaml")
	config := fmt.Sprintf("version: 1\n# The agents.\nagents:\n  - name: alice\n    title: Alice\n    icon: A\n    command: %q\n    args: [demo-agent, --name, Alice, --delay, \"0\"]\n", binary)
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}

	// tmux gives its panes its own SHELL: the test's is set on the command itself.
	term := startTerminal(t, env, dir, 160, 50, "env", "SHELL="+panelShell(t, mark), binary, "--config", cfg)
	term.waitFor("No window open", appWait)

	// Agent ▸ Add an agent…: the form, filled with the keys, the preview, then Add.
	term.keys("M-a")
	term.waitFor("Add an agent…", appWait)
	term.keys("a")
	term.waitFor("Name used with @", appWait)
	for _, field := range []string{"scout", "Scout", "S", "Explores", workspace} {
		term.typeText(field)
		term.keys("Tab")
	}
	term.keys("Tab") // where it runs: on this computer
	term.typeText(binary)
	term.keys("Tab")
	term.typeText("demo-agent --name Scout --delay 0")
	term.keys("Enter")
	term.waitFor("These lines will be added to", appWait)
	term.waitFor("    args: [demo-agent, --name, Scout, --delay, \"0\"]", appWait)
	term.keys("Enter")
	term.waitFor("New agents: scout", appWait)
	data, err := os.ReadFile(cfg)
	if err != nil || !strings.HasPrefix(string(data), config) || !strings.Contains(string(data), "  - name: scout\n") {
		t.Fatalf("the configuration after the wizard (%v):\n%s", err, data)
	}

	// Talk to it: Agent ▸ Scout opens its window.
	term.keys("M-a")
	term.waitFor("S Scout", appWait)
	term.keys("Down", "Enter")
	waitFocus(t, term, "S Scout")
	term.typeText("hello")
	term.keys("Enter")
	term.waitFor("I am Scout, a demo agent", appWait)
	waitUntil(t, term, "scout's turn over", func(s string) bool {
		return strings.Contains(s, "to see my commands.") && notWorking(s)
	})

	// Agent ▸ Agents panel…: both agents, scout running since its window opened.
	term.keys("M-a")
	term.waitFor("Agents panel…", appWait)
	term.keys("p")
	waitFocus(t, term, "Agents")
	term.waitFor("@alice", appWait)
	term.waitFor("@scout", appWait)
	term.waitFor("1 of 2 running", appWait)

	// Its Files: AGENTS.md is protected; Delete is refused and the window says why.
	term.keys("End", "f")
	waitFocus(t, term, "Files — Scout")
	term.waitFor("notes.md", appWait)
	term.keys("Down") // from the workspace's own row to AGENTS.md, which the viewer shows
	term.waitFor("# Scout", appWait)
	term.keys("DC")
	term.waitFor("“AGENTS.md” is protected", appWait)
	if _, err := os.Stat(filepath.Join(workspace, "AGENTS.md")); err != nil {
		t.Fatalf("AGENTS.md is gone: %v", err)
	}

	// Its terminal: the screen is lent to the shell, in the workspace, then comes back.
	term.keys("M-a")
	term.waitFor("Agents panel…", appWait)
	term.keys("p")
	waitFocus(t, term, "Agents")
	term.keys("t")
	term.waitFor("PANEL-SHELL in "+workspace, appWait)
	waitGone(t, term, "Sidekicks   Channels")
	term.keys("Enter")
	term.waitFor("Sidekicks   Channels   Agent   Window   Help", appWait)
	waitFocus(t, term, "Agents")
	term.waitFor("Files — Scout", appWait)
	term.waitFor("to see my commands.", appWait)
	term.waitFor("“AGENTS.md” is protected", appWait)
	if got, err := os.ReadFile(mark); err != nil || strings.TrimSpace(string(got)) != workspace {
		t.Errorf("the shell ran in %q (%v), want %s", got, err, workspace)
	}

	// Its Log: what the supervisor did, with times.
	term.keys("l")
	waitFocus(t, term, "Log — Scout")
	term.waitFor("sidekicks: ", appWait)

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}
