package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// silentEngineConfig writes a configuration at maxRunningAgents: 1 with alice, a container
// agent whose engine (DOCKER_HOST) never answers, and bob, a demo agent; both are members
// of two channels, #one and #two, whose windows show their states.
func silentEngineConfig(t *testing.T, dir, host string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("version: 1\nlimits:\n  maxRunningAgents: 1\nagents:\n")
	fmt.Fprintf(&b, "  - name: alice\n    title: Alice\n    icon: A\n    command: docker\n    args: [exec, -i, box, agent]\n"+
		"    env:\n      DOCKER_HOST: %q\n    workspace: %q\n    runtime:\n      type: container\n      container: box\n", host, dir)
	fmt.Fprintf(&b, "  - name: bob\n    title: Bob\n    icon: B\n    command: %q\n    args: [demo-agent, --name, Bob, --delay, \"0\"]\n", binary)
	b.WriteString("channels:\n  - name: one\n    agents: [alice, bob]\n  - name: two\n    agents: [alice, bob]\n")
	path := filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// An agent whose Docker engine never answers stays "starting" only until the turn that
// wants it is given up: Esc cancels its start (the agent is stopped at once, long before
// the engine timeout), and bob, waiting for its slot in another window, starts and
// answers. Closing the window of a turn whose agent is starting cancels the start too.
func TestSilentEngineStartIsCancelledInTerminal(t *testing.T) {
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skipf("no docker command (.ci/run installs it): %v", err)
	}
	host, accepted := testagents.SilentEngine(t)
	env := append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir(), "DOCKER_CONFIG="+t.TempDir(), "DOCKER_CONTEXT=", "DOCKER_HOST=")
	dir := t.TempDir()
	cfg := silentEngineConfig(t, dir, host)
	term := startTerminal(t, env, dir, 140, 50, binary, "--config", cfg)
	term.waitFor("#two", appWait)

	// askAlice asks alice in #one: docker connects to the engine, which never answers.
	askAlice := func() {
		t.Helper()
		term.keys("M-1")
		waitFocus(t, term, "#one")
		term.typeText("@alice hi")
		term.keys("Enter")
		waitConnection(t, accepted)
		term.waitFor("A Alice: starting", appWait)
	}
	askAlice()

	// bob, asked in #two, waits for alice's slot.
	term.keys("M-2")
	waitFocus(t, term, "#two")
	term.typeText("@bob hi")
	term.keys("Enter")
	term.waitFor("B Bob: waiting for a free slot", appWait)

	// Esc in #one gives alice's turn up: her start is cancelled, and bob gets the slot.
	term.keys("M-1")
	waitFocus(t, term, "#one")
	term.keys("Escape")
	waitGone(t, term, "Alice: starting")
	term.keys("M-2")
	waitFocus(t, term, "#two")
	term.waitFor("I am Bob, a demo agent", appWait)
	waitUntil(t, term, "bob's turn over", idle)

	// alice again, in #one (bob, idle, is stopped to make room); then #one is closed.
	askAlice()
	term.keys("C-w")
	waitFocus(t, term, "#two")
	waitGone(t, term, "Alice: starting")

	// The Agents panel: alice stopped, her slot free.
	term.keys("M-a")
	term.waitFor("Agents panel…", appWait)
	term.keys("p")
	waitFocus(t, term, "Agents")
	term.waitFor("0 of 1 running", appWait)
	waitUntil(t, term, "alice stopped in the panel", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "@alice") && strings.Contains(l, "stopped") {
				return true
			}
		}
		return false
	})

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
}

// waitConnection waits for the docker command's connection to the silent engine.
func waitConnection(t *testing.T, accepted <-chan net.Conn) {
	t.Helper()
	select {
	case <-accepted:
	case <-time.After(appWait):
		t.Fatal("docker never connected to the silent engine")
	}
}
