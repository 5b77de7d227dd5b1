package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/store"
	"github.com/gdamore/tcell/v2"
)

func TestAppQuitWaitsForAfterStop(t *testing.T) {
	dir := appEnv(t)
	marker := filepath.Join(t.TempDir(), "after-stop ran")
	path := filepath.Join(dir, "c.yaml")
	// The afterStop command takes a while, so that quitting without waiting for it would
	// be seen: the marker would not exist yet when the application returns.
	writeFile(t, path, "version: 1\nagents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", fmt.Sprintf("    afterStop: [sh, -c, 'sleep 0.5; touch \"$0\"', %q]\n", marker))+
		demoAgentYAML(t, "bob", "Bob", "B", "")+
		"channels:\n  - name: ops\n    agents: [alice, bob]\n")
	h := startApp(t, path, dir)
	proc := startAgent(t, h, "alice")
	h.waitText("A Alice  @alice — ready, process")
	h.alt('x')
	h.waitText("Quitting", "Waiting for the agents to stop")
	if r := h.wait(); r.code != 0 {
		t.Fatalf("exit status %d, want 0", r.code)
	}
	waitDone(t, proc, "alice after quitting")
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the application returned before alice's afterStop ended: %v", err)
	}
}

func TestAppQuitBoxIgnoresKeys(t *testing.T) {
	dir := appEnv(t)
	gate := filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.yaml")
	// afterStop waits until the test writes a line into the gate.
	writeFile(t, path, "version: 1\nagents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", fmt.Sprintf("    afterStop: [sh, -c, 'read line < \"$0\"', %q]\n", gate)))
	h := startApp(t, path, dir)
	startAgent(t, h, "alice")
	h.alt('x')
	h.waitText("Waiting for the agents to stop", "Running the last afterStop commands")
	h.press(tcell.KeyEscape)
	h.alt('x')
	h.onUI(func() {}) // both keys handled
	select {
	case r := <-h.done:
		h.ended = &r
		t.Fatalf("the application stopped before afterStop ended: %+v", r)
	default:
	}
	h.waitText("Waiting for the agents to stop")
	f, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	if r := h.wait(); r.code != 0 {
		t.Fatalf("exit status %d", r.code)
	}
}

// panickyHandler is a session handler that panics on the first chunk of a reply: on the
// goroutine that reads the agent (acp's reader), as a bug in parsing what an agent sends
// would.
type panickyHandler struct{ chat.SessionHandler }

func (panickyHandler) Chunk(kind, text string) { panic("the test's panic in the ACP reader") }

// A panic on the ACP reader, a goroutine of the agent stack, restores the terminal, is
// logged with its stack, and stops the agents: the screen's guard starts every long-lived
// goroutine of the stack.
func TestAppPanicInTheACPReaderRestoresTheTerminal(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	h := startApp(t, path, dir, func(_ *appHarness, o *appOptions) {
		o.agents = func(cfg *config.Config, ao agentstack.Options, st *store.Store) (Agents, error) {
			ao.WrapHandler = func(_ chat.Key, _ string, sh chat.SessionHandler) chat.SessionHandler {
				return panickyHandler{sh}
			}
			return newAgents(cfg, ao, st)
		}
	})
	proc := startAgent(t, h, "bob")
	if err := h.ap.agents.Service().Send(chat.AgentKey("alice"), "hello"); err != nil {
		t.Fatal(err)
	}
	r := h.wait()
	if r.code != 1 {
		t.Errorf("exit status %d after a panic, want 1", r.code)
	}
	if !h.screen.Finished() {
		t.Error("the terminal was not restored (the screen's Fini was not called)")
	}
	logPath := filepath.Join(os.Getenv("XDG_STATE_HOME"), "sidekicks", "logs", "sidekicks.log")
	if want := "sidekicks: stopped on an internal error; the details are in " + logPath + "\n"; h.stderr.String() != want {
		t.Errorf("stderr %q, want %q", h.stderr.String(), want)
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"panic in acp reader alice", "the test's panic in the ACP reader", "goroutine ", "readLoop", "every agent stopped"} {
		if !strings.Contains(string(data), w) {
			t.Errorf("the log lacks %q:\n%s", w, data)
		}
	}
	waitDone(t, proc, "bob after the panic")
}

func TestAppPanicIsLoggedAfterTheTerminalIsRestored(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	h := startApp(t, path, dir)
	proc := startAgent(t, h, "bob")
	h.ap.app.Post(func() { panic("the test's own panic") })
	r := h.wait()
	if r.code != 1 {
		t.Errorf("exit status %d after a panic, want 1", r.code)
	}
	logPath := filepath.Join(os.Getenv("XDG_STATE_HOME"), "sidekicks", "logs", "sidekicks.log")
	want := "sidekicks: stopped on an internal error; the details are in " + logPath + "\n"
	if got := h.stderr.String(); got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"the screen stopped on a panic", "the test's own panic", "goroutine ", "every agent stopped"} {
		if !strings.Contains(string(data), w) {
			t.Errorf("the log lacks %q:\n%s", w, data)
		}
	}
	// The agents were stopped all the same.
	waitDone(t, proc, "bob after the panic")
}
