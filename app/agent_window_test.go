package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// agentWinConfig writes a configuration with the demo agent alice working in a workspace
// of its own, which holds a README.md; it returns the configuration's path and the
// workspace.
func agentWinConfig(t *testing.T, dir, extra string) (path, workspace string) {
	t.Helper()
	workspace = t.TempDir()
	writeFile(t, filepath.Join(workspace, "README.md"), "# The demo workspace\n")
	path = filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\n"+extra+"agents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", fmt.Sprintf("    workspace: %q\n", workspace)))
	return path, workspace
}

// agentWinRows returns the rows of the windows on the screen: each screen row cut at the
// frames' side borders, without the spaces around.
func agentWinRows(screen string) []string {
	var rows []string
	for _, l := range strings.Split(screen, "\n") {
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == '│' || r == '║' }) {
			rows = append(rows, strings.TrimSpace(part))
		}
	}
	return rows
}

// hasWinRow reports whether a window's row reads exactly s once the spaces around are removed.
func hasWinRow(screen, s string) bool {
	for _, r := range agentWinRows(screen) {
		if r == s {
			return true
		}
	}
	return false
}

// waitWinRow waits until a row of the screen reads exactly s.
func (h *appHarness) waitWinRow(s string) string {
	h.t.Helper()
	return h.waitScreen(fmt.Sprintf("a row %q", s), func(screen string) bool { return hasWinRow(screen, s) })
}

// waitAgentState waits until the supervisor reports the agent in state want.
func waitAgentState(t *testing.T, h *appHarness, name string, want runtime.State) runtime.AgentState {
	t.Helper()
	events, cancel := supervisorOf(t, h).Subscribe()
	defer cancel()
	timer := time.NewTimer(appDeadline)
	defer timer.Stop()
	var last runtime.AgentState
	for {
		select {
		case ev := <-events:
			for _, st := range ev.States {
				if st.Name == name {
					last = st
				}
			}
			if last.State == want {
				return last
			}
		case <-timer.C:
			t.Fatalf("%s never became %s; it is %s", name, want, last.State)
		}
	}
}

// agentIdle waits until no turn runs in alice's conversation, and the screen has drawn it.
func (h *appHarness) agentIdle(k chat.Key) {
	h.t.Helper()
	svc := h.ap.agents.Service()
	deadline := time.Now().Add(appDeadline)
	for {
		_, next := h.screen.Last()
		if !svc.Busy(k) {
			break
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the turn never ended; the screen shows:\n%s", h.current())
		}
		select {
		case <-next:
		case <-time.After(time.Until(deadline)):
		}
	}
	h.onUI(func() {})
}

// usageOf returns the usage alice last reported in her window's conversation.
func usageOf(t *testing.T, h *appHarness) int {
	t.Helper()
	conv, ok := h.ap.agents.Service().Conversation(chat.AgentKey("alice"))
	if !ok {
		t.Fatal("alice's conversation is not open")
	}
	u, ok := conv.Usage("alice")
	if !ok {
		t.Fatal("alice reported no usage")
	}
	return u.Used
}

// sessionOf returns the ACP session of alice's window saved in the history (the
// application must have stopped).
func sessionOf(t *testing.T, path string) string {
	t.Helper()
	st := openStoreAt(t, path)
	defer st.Close()
	conv, err := st.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.Session(conv, "alice")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestAgentWindowEndToEnd(t *testing.T) {
	dir := appEnv(t)
	path, workspace := agentWinConfig(t, dir, "")
	h := startApp(t, path, dir)
	alice := chat.AgentKey("alice")

	// The Agent menu opens alice's window, and alice starts as it opens.
	h.alt('a')
	h.waitText("A Alice", "Agent status")
	h.press(tcell.KeyEnter)
	h.waitTitles("A Alice")
	waitAgentState(t, h, "alice", runtime.Ready)

	// A prompt naming a language: the reply streams, with its code block highlighted.
	h.typeText("show me some python")
	h.press(tcell.KeyEnter)
	h.waitText("I am Alice, a demo agent", "Here is a small example in Python:", "def greet(name: str) -> str:", "Type /help to see my commands.")
	h.agentIdle(alice)
	// Highlighting is computed off the screen's goroutine, and drawn when it is ready.
	h.waitCondition("def highlighted as a keyword", func() bool {
		def, name := h.cellStyle("def greet", 0), h.cellStyle("def greet", 4)
		return def != name && def != h.cellStyle("I am Alice, a demo agent", 0)
	})

	// Copy the code block: Tab to the conversation, the cursor up into the block, Ctrl-C.
	h.press(tcell.KeyTab)
	for range 3 {
		h.press(tcell.KeyUp)
	}
	h.key(tcell.KeyCtrlC, 0, tcell.ModCtrl)
	h.waitText("7 lines copied")
	var clip string
	h.onUI(func() { clip = h.ap.app.Clipboard() })
	if want := "def greet(name: str) -> str:\n    return f\"Hello, {name}!\"\n\n\nif __name__ == \"__main__\":\n    for name in (\"Alice\", \"Bob\"):\n        print(greet(name))"; clip != want {
		t.Errorf("copied %q, want the code block %q", clip, want)
	}
	h.press(tcell.KeyTab)

	// A command, and a mention of a file of the workspace, completed with Tab.
	h.typeText("/echo hi")
	h.press(tcell.KeyEnter)
	h.waitWinRow("hi")
	h.agentIdle(alice)
	h.typeText("sum up @REA")
	h.waitWinRow("README.md") // the list of the workspace's files
	h.press(tcell.KeyTab)
	h.waitWinRow("sum up @README.md")
	h.press(tcell.KeyEnter)
	h.waitText("You sent me 1 file(s):", "README.md, embedded, 21 bytes")
	h.agentIdle(alice)

	// A permission: the window shows the agent's options; allowing writes the file.
	h.typeText("/write f.txt x")
	h.press(tcell.KeyEnter)
	h.waitText("! A Alice asks permission", "Write f.txt", "1  Allow", "2  Reject")
	h.later(time.Second)
	h.typeText("1")
	h.agentIdle(alice)
	if data, err := os.ReadFile(filepath.Join(workspace, "f.txt")); err != nil || string(data) != "x" {
		t.Fatalf("f.txt after allowing: %q, %v", data, err)
	}

	// Agent status tells the commands alice announced. A permission asked while her
	// window is not in front marks it; it is answered once her window is in front.
	h.alt('a')
	h.waitText("Agent status")
	h.typeText("s")
	h.waitTitles("A Alice", "Agent status")
	h.waitText("   Workspace: "+workspace, "   Runtime: local", "   Commands announced", "     /echo <text to repeat> — Reply with exactly the text", "   Nothing ignored.")
	svc := h.ap.agents.Service()
	if err := svc.Send(alice, "/write g.txt y"); err != nil {
		t.Fatal(err)
	}
	h.waitText("! A Alice asks permission", "Write g.txt")
	var attention bool
	h.onUI(func() { attention = h.ap.find(winAgent, 0, "alice").win.Attention() })
	if !attention {
		t.Error("alice's window, not in front, is not marked while she asks permission")
	}
	h.focusWindow(1)
	h.later(time.Second)
	h.typeText("1")
	h.agentIdle(alice)
	if data, err := os.ReadFile(filepath.Join(workspace, "g.txt")); err != nil || string(data) != "y" {
		t.Fatalf("g.txt after allowing: %q, %v", data, err)
	}
	h.alt('1')
	h.waitCondition("alice's window no longer marked once in front", func() bool {
		h.onUI(func() { attention = h.ap.find(winAgent, 0, "alice").win.Attention() })
		return !attention
	})
	h.alt('2')
	h.key(tcell.KeyF3, 0, tcell.ModAlt) // Agent status closes
	h.waitTitles("A Alice")

	// Esc cancels a turn in progress.
	h.typeText("/slow")
	h.press(tcell.KeyEnter)
	h.waitText("Here comes a slow stream of 2000 words")
	var busy bool
	h.onUI(func() { busy = h.ap.find(winAgent, 0, "alice").win.Busy() })
	if !busy {
		t.Error("the window's spinner does not turn while alice answers")
	}
	h.press(tcell.KeyEscape)
	h.waitText("alice: turn cancelled")
	h.agentIdle(alice)
	h.onUI(func() { busy = h.ap.find(winAgent, 0, "alice").win.Busy() })
	if busy {
		t.Error("the spinner still turns after the turn ended")
	}

	// Quit with the window open: it comes back with its history, and alice's ACP session
	// goes on (session/load): no notice of a new session, and her usage keeps growing.
	used := usageOf(t, h)
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	session := sessionOf(t, path)
	if session == "" {
		t.Fatal("no ACP session saved for alice's window")
	}
	h = startApp(t, path, dir)
	h.waitTitles("A Alice")
	h.waitText("I created f.txt: 1 bytes written.", "alice: turn cancelled")
	h.typeText("/echo again")
	h.press(tcell.KeyEnter)
	s := h.waitWinRow("again")
	h.agentIdle(alice)
	if strings.Contains(s, "new session") {
		t.Errorf("a new session started after the restart:\n%s", s)
	}
	if got := usageOf(t, h); got <= used {
		t.Errorf("usage %d after the restart, was %d: the session did not go on", got, used)
	}
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	if got := sessionOf(t, path); got != session {
		t.Errorf("session %q after the restart, was %q", got, session)
	}

	// Ctrl-W closes the window, and it stays closed at the next start.
	h = startApp(t, path, dir)
	h.waitTitles("A Alice")
	h.waitWinRow("again")
	h.key(tcell.KeyCtrlW, 0, tcell.ModCtrl)
	h.waitTitles()
	h.quit()
	h = startApp(t, path, dir)
	h.waitText("No window open")
}

// cellStyle returns the style of the cell at offset runes into the first row that holds
// text (screen's goroutine).
func (h *appHarness) cellStyle(text string, offset int) tcell.Style {
	h.t.Helper()
	h.onUI(func() {}) // a frame drawn after what was posted before
	f, _ := h.screen.Last()
	x, y, found := f.Find(text)
	if !found {
		h.t.Fatalf("no row holds %q:\n%s", text, f.Text())
	}
	return f.Style(x+uniseg.StringWidth(string([]rune(text)[:offset])), y)
}

// waitCondition waits for a frame after which ok holds.
func (h *appHarness) waitCondition(what string, ok func() bool) {
	h.t.Helper()
	timer := time.NewTimer(appDeadline)
	defer timer.Stop()
	for {
		_, next := h.screen.Last()
		if ok() {
			return
		}
		select {
		case <-next:
		case <-timer.C:
			h.t.Fatalf("the screen never showed %s; it shows:\n%s", what, h.current())
		}
	}
}

func TestAgentWindowShowsTheAgentStarting(t *testing.T) {
	dir := appEnv(t)
	gate := filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	// alice's process waits for a line in the gate before it becomes the demo agent.
	agent := strings.Replace(demoAgentYAML(t, "alice", "Alice", "A", ""),
		fmt.Sprintf("    command: %q\n", os.Args[0]),
		fmt.Sprintf("    command: sh\n    args: [\"-c\", 'read line < \"$0\"; exec \"$1\"', %q, %q]\n", gate, os.Args[0]), 1)
	if !strings.Contains(agent, "command: sh\n") {
		t.Fatalf("the agent's command was not replaced:\n%s", agent)
	}
	path := filepath.Join(dir, "c.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+agent)
	h := startApp(t, path, dir)
	h.alt('a')
	h.waitText("A Alice")
	h.press(tcell.KeyEnter)
	h.waitTitles("A Alice")
	h.waitText("⠋ starting the agent…")
	var busy bool
	h.onUI(func() { busy = h.ap.find(winAgent, 0, "alice").win.Busy() })
	if !busy {
		t.Error("the window's spinner does not turn while alice starts")
	}
	f, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("go\n")
	f.Close()
	waitAgentState(t, h, "alice", runtime.Ready)
	h.waitGone("starting the agent…")
	h.typeText("/echo ready")
	h.press(tcell.KeyEnter)
	h.waitWinRow("ready")
}

func TestAgentWindowWaitsForASlot(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "c.yaml")
	writeFile(t, path, "version: 1\nlimits:\n  maxRunningAgents: 1\nagents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", "")+demoAgentYAML(t, "bob", "Bob", "B", ""))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("alice") })
	waitAgentState(t, h, "alice", runtime.Ready)
	h.typeText("/slow")
	h.press(tcell.KeyEnter)
	h.waitText("Here comes a slow stream")

	// Every slot is taken by a busy agent: bob's window opens without starting him, and
	// his first message waits, visibly, until alice's turn ends.
	h.onUI(func() { h.ap.openAgent("bob") })
	h.waitTitles("A Alice", "B Bob")
	h.typeText("/echo at last")
	h.press(tcell.KeyEnter)
	h.waitText("waiting for a free slot (maxRunningAgents)")
	if st := supervisorOf(t, h).State("bob"); st.Pid != 0 {
		t.Errorf("bob runs (%s) while every slot is taken", st.State)
	}
	h.alt('1')
	h.press(tcell.KeyEscape)
	h.waitText("alice: turn cancelled")
	// alice, idle now, makes room for bob.
	h.alt('2')
	h.waitWinRow("at last")
	waitAgentState(t, h, "alice", runtime.Stopped)
}

func TestAgentWindowFollowsTheConfiguration(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "c.yaml")
	alice := demoAgentYAML(t, "alice", "Alice", "A", "")
	writeFile(t, path, "version: 1\nagents:\n"+alice+demoAgentYAML(t, "bob", "Bob", "B", ""))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("bob") })
	h.waitTitles("B Bob")

	// A new title shows in the window's frame.
	writeFile(t, path, "version: 1\nagents:\n"+alice+demoAgentYAML(t, "bob", "Robert", "R", ""))
	h.waitTitles("R Robert")

	// Removed: the window stays, with its conversation, which says so; a message fails.
	writeFile(t, path, "version: 1\nagents:\n"+alice)
	h.waitText("Removed agents: bob")
	h.waitWinRow("This agent was removed from the configuration: it was stopped, and its conversation stays in the history.")
	h.waitTitles("R Robert")
	h.typeText("/echo lost")
	h.press(tcell.KeyEnter)
	h.waitWinRow(`bob: error: "bob": unknown agent`)

	// Back: messages reach him again.
	writeFile(t, path, "version: 1\nagents:\n"+alice+demoAgentYAML(t, "bob", "Bob", "B", ""))
	h.waitTitles("B Bob")
	// The frame shows the new configuration before the supervisor has it; the status
	// bar's message comes after.
	h.waitText("New agents: bob")
	h.typeText("/echo back")
	h.press(tcell.KeyEnter)
	h.waitWinRow("back")
}

func TestAgentStatusLines(t *testing.T) {
	lang := i18n.English
	a := config.Agent{Name: "alice", Workspace: "/w\x1b[2J", Runtime: config.Runtime{Type: "container", Container: "box"}}
	if got := lineTexts(agentPlaceLines(lang, a)); got != "  Workspace: /w\n  Runtime: container box\n" {
		t.Errorf("place lines %q", got)
	}
	a.Runtime = config.Runtime{Type: "sbx", Sandbox: "sand"}
	if got := lineTexts(agentPlaceLines(i18n.French, a)); !strings.Contains(got, "sbx sand") || strings.Contains(got, "Workspace") {
		t.Errorf("place lines in French %q", got)
	}
	// An agent in error: how it ended, and the last lines of its stderr, cleaned.
	exit := runtime.ExitStatus{Code: 3}
	got := lineTexts(stateLines(lang, runtime.AgentState{State: runtime.Error, Exit: &exit, StderrTail: []string{"panic: \x1b[1mno"}}, "  "))
	if want := "  State: error\n  Ended with exit status 3\n  Last lines of its error output:\n    panic: no\n"; got != want {
		t.Errorf("state lines %q, want %q", got, want)
	}
}
