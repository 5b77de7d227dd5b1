package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/testagents"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// processGone reports whether no process has this pid any more.
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// textLen is how much text a conversation holds.
func textLen(conv *chat.Conversation) int {
	n := 0
	for _, e := range conv.Snapshot() {
		n += len(e.Text)
	}
	return n
}

// closeConfig writes a configuration with the demo agent alice, one word a second (a reply
// lasts far longer than a test), alone in the channel #ops.
func closeConfig(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAMLDelay(t, "alice", "Alice", "A", "", "1s")+
		"channels:\n  - name: ops\n    agents: [alice]\n")
	return path
}

// startAlice starts the application on closeConfig with alice's window open, and returns
// it with alice's pid once she is ready.
func startAlice(t *testing.T, changes ...func(*appHarness, *appOptions)) (*appHarness, int) {
	t.Helper()
	dir := appEnv(t)
	h := startApp(t, closeConfig(t, dir), dir, changes...)
	h.waitTitles("#ops")
	h.onUI(func() { h.ap.openAgent("alice") })
	h.waitTitles("#ops", "A Alice")
	return h, waitAgentState(t, h, "alice", runtime.Ready).Pid
}

// turnRunning reports whether the agent's turn in the conversation of k has its prompt
// with the agent.
func turnRunning(svc *chat.Service, k chat.Key, agent string) bool {
	for _, tu := range svc.Turns(k) {
		if tu.Agent == agent && tu.Phase == chat.PhaseRunning {
			return true
		}
	}
	return false
}

func TestClosingAnAgentWindowStopsTheAgent(t *testing.T) {
	h, pid := startAlice(t)

	// Ctrl-W on the agent's window: the window closes and the agent's process ends.
	h.key(tcell.KeyCtrlW, 0, tcell.ModCtrl)
	h.waitTitles("#ops")
	st := waitAgentState(t, h, "alice", runtime.Stopped)
	if st.Reason != runtime.ReasonWindowClosed {
		t.Errorf("alice stopped for %q, want %q", st.Reason, runtime.ReasonWindowClosed)
	}
	if !processGone(pid) {
		t.Errorf("alice's process %d still runs after her window closed", pid)
	}

	// A channel's turn is using alice when her window closes: she stops once it ends.
	h.onUI(func() { h.ap.openAgent("alice") })
	h.waitTitles("#ops", "A Alice")
	pid = waitAgentState(t, h, "alice", runtime.Ready).Pid
	ops := chat.ChannelKey(int64(h.ap.channels[0].ID))
	svc := h.ap.agents.Service()
	if err := svc.Send(ops, "hello"); err != nil {
		t.Fatal(err)
	}
	// The channel's turn holds alice once its prompt is with her. Busy alone does not say
	// so: the window's start and the opening of its session hold her too.
	h.waitCondition("the channel's turn with alice", func() bool { return turnRunning(svc, ops, "alice") })
	h.key(tcell.KeyCtrlW, 0, tcell.ModCtrl)
	h.waitTitles("#ops")
	// The turn goes on: alice writes more into the channel.
	conv, _ := svc.Conversation(ops)
	before := textLen(conv)
	h.waitCondition("alice still answering in #ops", func() bool { return textLen(conv) > before })
	if st := supervisorOf(t, h).State("alice"); st.State != runtime.Busy || st.Pid != pid {
		t.Fatalf("alice is %s (pid %d) while the channel's turn runs, want busy (pid %d)", st.State, st.Pid, pid)
	}
	svc.Cancel(ops)
	h.waitText("alice: turn cancelled")
	st = waitAgentState(t, h, "alice", runtime.Stopped)
	if st.Reason != runtime.ReasonWindowClosed || !processGone(pid) {
		t.Errorf("after the channel's turn: alice %s for %q, process %d gone: %v", st.State, st.Reason, pid, processGone(pid))
	}

	// Opening her window again starts her, and she stays.
	h.onUI(func() { h.ap.openAgent("alice") })
	waitAgentState(t, h, "alice", runtime.Ready)
}

func TestRestartFromThePanelIsNoError(t *testing.T) {
	h, pid := startAlice(t)
	alice := chat.AgentKey("alice")
	svc := h.ap.agents.Service()
	if err := svc.Send(alice, "hello"); err != nil {
		t.Fatal(err)
	}
	waitAgentState(t, h, "alice", runtime.Busy)

	// r in the Agents panel restarts alice in the middle of her turn.
	h.onUI(h.ap.showPanel)
	h.waitText("1 of 2 running")
	h.typeText("r")
	h.waitCondition("alice's turn ended", func() bool { return !svc.Busy(alice) })
	if st := waitAgentState(t, h, "alice", runtime.Ready); st.Pid == pid {
		t.Errorf("alice still runs as %d after the restart", pid)
	}
	notices := h.notices(alice)
	if len(notices) != 1 || notices[0] != "alice: turn interrupted: the agent was restarted" {
		t.Errorf("notices after the restart: %q", notices)
	}
	// She answers again.
	if err := svc.Send(alice, "/echo back"); err != nil {
		t.Fatal(err)
	}
	h.waitCondition("alice's reply", func() bool { r := h.replies(alice, "alice"); return len(r) > 0 && r[len(r)-1] == "back" })

	// x stops her in the middle of the next one: said as such too.
	if err := svc.Send(alice, "hello"); err != nil {
		t.Fatal(err)
	}
	waitAgentState(t, h, "alice", runtime.Busy)
	h.typeText("x")
	waitAgentState(t, h, "alice", runtime.Stopped)
	h.waitCondition("alice's turn ended", func() bool { return !svc.Busy(alice) })
	if n := h.notices(alice); len(n) != 2 || n[1] != "alice: turn interrupted: the agent was stopped" {
		t.Errorf("notices after the stop: %q", n)
	}
}

func TestUsageStartsAgainWithANewSession(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	state := t.TempDir()
	writeFile(t, path, "version: 1\nagents:\n"+testagents.DemoEntry(t, "alice", dir, state, "    title: Alice\n    icon: A\n"))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("alice") })
	h.waitTitles("A Alice")
	alice := chat.AgentKey("alice")
	svc := h.ap.agents.Service()
	if err := svc.Send(alice, "/echo first"); err != nil {
		t.Fatal(err)
	}
	h.waitText("tokens")
	if usageOf(t, h) <= 0 {
		t.Fatal("alice reported no tokens")
	}
	// Restarted without its sessions, the demo agent cannot load the earlier one: a new
	// session starts.
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), appDeadline)
	defer cancel()
	if err := supervisorOf(t, h).Restart(ctx, "alice"); err != nil {
		t.Fatal(err)
	}

	// The next message opens a new session: its usage is not the old one's.
	if err := svc.Send(alice, "/slow"); err != nil {
		t.Fatal(err)
	}
	conv, _ := svc.Conversation(alice)
	h.waitCondition("the new session's notice", func() bool {
		n := h.notices(alice)
		return len(n) > 0 && n[len(n)-1] == "alice: a new session starts here (the previous one could not be resumed)"
	})
	h.waitCondition("the slow stream", func() bool { return strings.Contains(h.current(), "word1 ") })
	s := h.current()
	if u, ok := conv.Usage("alice"); ok {
		t.Errorf("the new session shows the old one's usage %+v", u)
	}
	if strings.Contains(s, "tokens") {
		t.Errorf("the status bar still shows the old session's tokens:\n%s", s)
	}
	svc.Cancel(alice)
	h.agentIdle(alice)
}

// testClock is a clock the test moves by hand.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) now() time.Time {
	return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(c.offset.Load()))
}

func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// handled waits until the keys pressed so far have been handled and a frame drawn after
// them.
func (h *appHarness) handled() {
	h.t.Helper()
	select {
	case <-h.ap.app.Drawn():
	case <-time.After(appDeadline):
		h.t.Fatalf("the keys pressed were not handled; the screen shows:\n%s", h.current())
	}
}

// startMule starts the application on the stubborn agent mule, opens its window and sends
// it a message, which it never ends; it returns mule's pid.
func startMule(t *testing.T, changes ...func(*appHarness, *appOptions)) (*appHarness, int) {
	t.Helper()
	dir := appEnv(t)
	path := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "mule", "stubborn", t.TempDir()))
	h := startApp(t, path, dir, changes...)
	h.onUI(func() { h.ap.openAgent("mule") })
	h.waitTitles("mule")
	pid := waitAgentState(t, h, "mule", runtime.Ready).Pid
	h.typeText("go on")
	h.press(tcell.KeyEnter)
	h.waitWinRow("working")
	return h, pid
}

func TestEscAgainStopsAnAgentThatIgnoresTheCancel(t *testing.T) {
	clock := &testClock{}
	h, pid := startMule(t, func(_ *appHarness, o *appOptions) { o.now = clock.now })
	mule := chat.AgentKey("mule")
	h.press(tcell.KeyEscape)
	h.waitText("cancelling…", "Esc Cancel turn")

	// Before StuckAfter, Esc again does not stop it. The key is handled before the clock
	// moves on: pressing only puts it in the screen's queue.
	clock.advance(chatwin.StuckAfter - time.Second)
	h.press(tcell.KeyEscape)
	h.handled()
	s := h.waitText("cancelling…")
	if strings.Contains(s, "Esc again") {
		t.Errorf("the window offers to stop mule before %s:\n%s", chatwin.StuckAfter, s)
	}
	if st := supervisorOf(t, h).State("mule"); st.State != runtime.Busy {
		t.Fatalf("mule is %s after an Esc before %s", st.State, chatwin.StuckAfter)
	}

	// Past it, the window says Esc again stops it, and it does: the turn ends cancelled.
	clock.advance(time.Second)
	h.waitText("cancelling… no answer from mule — Esc again stops the agent", "Esc Stop the agent")
	h.press(tcell.KeyEscape)
	h.waitText("mule: turn cancelled")
	h.agentIdle(mule)
	st := waitAgentState(t, h, "mule", runtime.Stopped)
	if st.Reason != runtime.ReasonStopped || !processGone(pid) {
		t.Errorf("mule %s for %q; its process %d gone: %v", st.State, st.Reason, pid, processGone(pid))
	}
	if n := h.notices(mule); len(n) != 1 {
		t.Errorf("notices %q, want only the cancel", n)
	}
}

func TestEscAgainInAChannelInFrench(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nui:\n  language: fr\nagents:\n"+testagents.ModeEntry(t, "mule", "stubborn", t.TempDir())+
		"channels:\n  - name: ops\n    agents: [mule]\n")
	clock := &testClock{}
	h := startApp(t, path, dir, func(_ *appHarness, o *appOptions) { o.now = clock.now })
	h.waitTitles("#ops")
	ops := chat.ChannelKey(int64(h.ap.channels[0].ID))

	h.typeText("@mule go on")
	h.press(tcell.KeyEnter)
	h.waitWinRow("working")
	pid := waitAgentState(t, h, "mule", runtime.Busy).Pid
	h.press(tcell.KeyEscape)
	h.waitText("annulation…")
	clock.advance(chatwin.StuckAfter)
	h.waitText("annulation… pas de réponse de mule — Échap à nouveau arrête l'agent", "Esc Arrêter l'agent")
	h.press(tcell.KeyEscape)
	h.waitText("mule : tour annulé")
	h.agentIdle(ops)
	if st := waitAgentState(t, h, "mule", runtime.Stopped); !processGone(pid) {
		t.Errorf("mule %s, its process %d still runs", st.State, pid)
	}
}

func TestClosingAWindowStopsItsAgentInTheMiddleOfATurn(t *testing.T) {
	h, pid := startMule(t)

	// mule ignores the cancel that closing sends: the window does not wait for it.
	h.key(tcell.KeyCtrlW, 0, tcell.ModCtrl)
	h.waitTitles()
	if st := waitAgentState(t, h, "mule", runtime.Stopped); st.Reason != runtime.ReasonWindowClosed || !processGone(pid) {
		t.Errorf("mule stopped for %q; its process %d gone: %v", st.Reason, pid, processGone(pid))
	}
}

// A secret saved while a turn holds the agent stops it once the turn ends, so that its next
// start passes the secret: opening the agent's window meanwhile does not forget that stop
// (it forgets only the one its closing asked for).
func TestOpeningTheWindowKeepsTheStopOfANewSecret(t *testing.T) {
	dir := appEnv(t)
	h := startApp(t, closeConfig(t, dir), dir)
	h.waitTitles("#ops")
	// A turn holds alice, as a channel's would.
	ctx, cancel := context.WithTimeout(context.Background(), appDeadline)
	defer cancel()
	lease, err := supervisorOf(t, h).Acquire(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	pid := lease.Process().Pid
	h.onUI(func() { h.ap.saveSecret(target{agent: "alice"}, "ALICE_KEY", "v1") })
	h.waitText("Secret ALICE_KEY of alice saved")
	h.onUI(func() { h.ap.openAgent("alice") })
	h.waitTitles("#ops", "A Alice")
	lease.Release()

	st := waitAgentState(t, h, "alice", runtime.Stopped)
	if st.Reason != runtime.ReasonNewSecrets || !processGone(pid) {
		t.Errorf("alice stopped for %q, process %d gone: %v", st.Reason, pid, processGone(pid))
	}
	// Her next message starts her again, with the secret.
	alice := chat.AgentKey("alice")
	if err := h.ap.agents.Service().Send(alice, "/echo back"); err != nil {
		t.Fatal(err)
	}
	h.waitCondition("alice's reply", func() bool { r := h.replies(alice, "alice"); return len(r) > 0 && r[len(r)-1] == "back" })
	if st := supervisorOf(t, h).State("alice"); st.Pid == pid || st.Pid == 0 {
		t.Errorf("alice answered as pid %d, the one before the secret was %d", st.Pid, pid)
	}
}
