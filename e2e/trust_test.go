package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// markerCommand is the command of an agent that first creates marker, then runs the test
// binary as the agent its env makes it: the marker's presence says that the command ran.
// It is the agent's command and args, as YAML or TOML strings.
func markerCommand(t *testing.T, marker string) (command, args string) {
	t.Helper()
	script := `echo > "$1" && exec "$0" -test.run='^$'`
	return `"/bin/sh"`, fmt.Sprintf("[%q, %q, %q, %q]", "-c", script, testagents.Binary(t), marker)
}

// present reports whether the file at path exists.
func present(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// agentMenu opens the Agent menu, then sends keys.
func agentMenu(term *terminal, keys ...string) {
	term.t.Helper()
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys(keys...)
}

// quitApp quits the application with Alt-X and fails the test unless it ends with status 0.
func quitApp(term *terminal, what string) {
	term.t.Helper()
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		term.t.Fatalf("%s: exit status %d; the screen shows:\n%s", what, code, term.screen())
	}
}

// dialogText returns the text of the dialog titled title on the screen: its rows, each
// cut at the dialog's sides, joined with spaces (a line the dialog wrapped reads as one).
func dialogText(screen, title string) string {
	lines := strings.Split(screen, "\n")
	for i, l := range lines {
		j := strings.Index(l, "═ "+title+" ═")
		if j < 0 {
			continue
		}
		left := strings.LastIndex(l[:j], "╔")
		right := strings.Index(l[j:], "╗")
		if left < 0 || right < 0 {
			continue
		}
		from, to := len([]rune(l[:left])), len([]rune(l[:j+right]))
		var rows []string
		for _, row := range lines[i+1:] {
			r := []rune(row)
			if len(r) <= to || r[from] == '╚' {
				break
			}
			if s := strings.TrimSpace(string(r[from+1 : to])); s != "" {
				rows = append(rows, s)
			}
		}
		return strings.Join(rows, " ")
	}
	return ""
}

// A cloned repository's agents file that defines an agent named like one of the user's
// (alice, whose window was open when Sidekicks last quit) and another (probe) runs none of
// its programs — neither through `ask` nor when Sidekicks starts in the folder and reopens
// alice's window — until the user allows it from Agent ▸ Allow project agents…; the screen
// names the file. Once allowed, probe runs and is marked [project]; the configured alice
// is the one that keeps running, and the collision is said.
func TestProjectAgentsRunOnlyOnceAllowed(t *testing.T) {
	env := append(isolate(t), "SIDEKICKS_STATE_DIR=", "SIDEKICKS_DEMO_STATE="+t.TempDir())
	dir, confDir, markers := t.TempDir(), t.TempDir(), t.TempDir()
	configured := filepath.Join(markers, "configured alice ran")
	projectAlice := filepath.Join(markers, "project alice ran")
	probe := filepath.Join(markers, "probe ran")

	command, args := markerCommand(t, configured)
	cfg := filepath.Join(confDir, "sidekicks.yaml")
	yaml := fmt.Sprintf("version: 1\nagents:\n  - name: alice\n    title: Alice\n    icon: A\n    command: %s\n    args: %s\n    env:\n%s    workspace: %q\n",
		command, args, testagents.DemoEnv("Alice", "0"), t.TempDir())
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}

	// First run, without the project file: alice's window is opened, then saved on quitting.
	term := startTerminal(t, env, dir, 160, 40, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	agentMenu(term, "Enter")
	waitFocus(t, term, "A Alice")
	quitApp(term, "first run")
	os.Remove(configured)

	// The folder gets a project agents file.
	var project strings.Builder
	for _, a := range []struct{ name, marker string }{{"alice", projectAlice}, {"probe", probe}} {
		command, args := markerCommand(t, a.marker)
		fmt.Fprintf(&project, "[[agent]]\nname = %q\ncommand = %s\nargs = %s\nenv = { SIDEKICKS_TEST_AGENT = \"noload\", GORACE = \"atexit_sleep_ms=0\" }\n",
			a.name, command, args)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".sidekicks"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".sidekicks", "acp.toml"), []byte(project.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	noProjectRan := func(when string) {
		t.Helper()
		for _, m := range []string{projectAlice, probe} {
			if present(m) {
				t.Fatalf("%s: the project's program ran (%s exists)", when, filepath.Base(m))
			}
		}
	}

	// ask, before approval: the configured alice answers, probe is unknown, the file is named.
	notAllowed := "this folder defines 2 agents in .sidekicks/acp.toml — not allowed"
	r := runBinary(t, env, dir, appWait, "ask", "--config", cfg, "alice", "hello")
	if r.code != 0 || !strings.Contains(r.stdout, "I am Alice, a demo agent") || !strings.Contains(r.stderr, notAllowed) {
		t.Errorf("ask alice before approval: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, env, dir, appWait, "ask", "--config", cfg, "probe", "hello")
	if r.code != 2 || !strings.Contains(r.stderr, notAllowed) {
		t.Errorf("ask probe before approval: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	noProjectRan("ask before approval")
	os.Remove(configured)

	// Second run, in the folder: alice's window comes back; the alice that answers in it is
	// the configured one (the project's would answer "ok"), and the file is named.
	term = startTerminal(t, env, dir, 160, 40, binary, "--config", cfg)
	term.waitFor(notAllowed, appWait)
	waitFocus(t, term, "A Alice")
	noProjectRan("restored window")
	term.typeText("hello")
	term.keys("Enter")
	term.waitFor("I am Alice, a demo agent", appWait)
	waitUntil(t, term, "the end of alice's turn", turnOver)
	noProjectRan("restored window, after a turn")
	if !present(configured) {
		t.Error("the configured alice answered without running its command")
	}

	// Agent ▸ Allow project agents… shows what would run; Yes allows it.
	agentMenu(term, "w")
	term.waitFor("Allow these agents to run?", appWait)
	s := dialogText(term.screen(), "Allow project agents")
	collision := `agent "alice" is not added: the configuration already has an agent named @alice ("Alice"), which is kept`
	for _, want := range []string{"@alice", "@probe", "command:   /bin/sh -c", filepath.Base(probe), collision} {
		if !strings.Contains(s, want) {
			t.Errorf("the approval does not show %q; it reads %q; the screen shows:\n%s", want, s, term.screen())
		}
	}
	noProjectRan("the approval shown")
	term.typeText("y")
	term.waitFor("New agents: probe", appWait)

	// probe, opened by the user, runs, marked as the project's.
	agentMenu(term, "Down", "Enter")
	waitFocus(t, term, "probe [project]")
	term.typeText("hi")
	term.keys("Enter")
	waitRow(t, term, "ok")
	if !present(probe) {
		t.Error("probe answered without running its command")
	}

	// alice is still the configured one.
	term.keys("M-1")
	waitFocus(t, term, "A Alice")
	term.typeText("/echo still configured")
	term.keys("Enter")
	waitRow(t, term, "still configured")
	if present(projectAlice) {
		t.Errorf("the project's alice ran after approval, in place of the configured one")
	}
	quitApp(term, "second run")

	// ask, after approval: probe is marked as the project's.
	r = runBinary(t, env, dir, appWait, "ask", "--config", cfg, "probe", "hello")
	if r.code != 0 || r.stdout != "ok\n" || !strings.Contains(r.stderr, "[project] @probe is an agent of the project") {
		t.Errorf("ask probe after approval: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if present(projectAlice) {
		t.Error("the project's alice ran")
	}
}
