package chatwin

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// ruleRow returns the row of the rule between the conversation and the input.
func (wd *world) ruleRow() string {
	for _, row := range wd.rows() {
		if strings.HasPrefix(row, "║─") {
			return row
		}
	}
	wd.t.Fatalf("no rule on screen:\n%s", wd.text())
	return ""
}

func TestEscCancelsTheTurnAndSpinnerTurns(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("/slow")
	wd.waitText("working slowly")
	rule := wd.ruleRow()
	if !strings.Contains(rule, "the agent is working — Esc cancels") {
		t.Fatalf("rule %q", rule)
	}
	if !onUI(wd.harness, wd.w.Busy) || !onUI(wd.harness, wd.win.Busy) {
		t.Fatal("the window is not busy during a turn")
	}
	// The spinner is drawn from the clock: it moves when the clock does.
	frame := []rune(strings.TrimPrefix(rule, "║─ "))[0]
	wd.clock.Advance(125 * time.Millisecond)
	wd.sync()
	if next := []rune(strings.TrimPrefix(wd.ruleRow(), "║─ "))[0]; next == frame {
		t.Errorf("the spinner did not move with the clock: %c", next)
	}
	if !strings.Contains(wd.status(), "Esc Cancel turn") {
		t.Errorf("status bar during a turn: %q", wd.status())
	}
	// Esc with a selection drops it first.
	wd.press(tcell.KeyTab)
	wd.key(tcell.KeyUp, tcell.ModShift)
	wd.press(tcell.KeyEsc)
	if onUI(wd.harness, func() bool { return wd.w.cur.selOn }) {
		t.Fatal("Esc did not drop the selection")
	}
	if !onUI(wd.harness, wd.w.Busy) {
		t.Fatal("the first Esc cancelled the turn instead of dropping the selection")
	}
	wd.press(tcell.KeyEsc)
	if r := wd.turnEnded(); r.StopReason != chat.StopCancelled || !r.Cancelled {
		t.Fatalf("turn ended with %+v", r)
	}
	if rule := wd.ruleRow(); strings.Trim(rule, "║─") != "" {
		t.Errorf("the rule still says something after the turn: %q", rule)
	}
}

func TestSendingDuringATurnQueues(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("/stubborn")
	wd.typeText("next one")
	wd.press(tcell.KeyEnter)
	wd.waitText("queued: next one")
	if n := wd.agent.promptCount(); n != 1 {
		t.Fatalf("the second message was sent during the turn (%d prompts)", n)
	}
	wd.typeText("third\nline")
	wd.press(tcell.KeyEnter)
	wd.waitText("queued: third …")
	wd.golden("queued")
	// Esc cancels the turn; once it is being cancelled, Esc withdraws the last message,
	// put back in the input.
	wd.press(tcell.KeyEsc)
	wd.settled(wd.w, "cancelling turn", wd.w.cancelling)
	wd.press(tcell.KeyEsc)
	wd.settled(wd.w, "message back in the input", func() bool { return wd.w.input.text == "third\nline" })
	if strings.Contains(wd.text(), "queued: third") || !strings.Contains(wd.text(), "queued: next one") {
		t.Fatalf("the queue shown is wrong:\n%s", wd.text())
	}
	close(wd.agent.release)
	if r := wd.turnEnded(); r.StopReason != chat.StopCancelled {
		t.Fatalf("turn ended with %+v", r)
	}
	// The queued message is sent once the turn has ended.
	if got := wd.started(); got != "next one" {
		t.Fatalf("sent %q after the turn", got)
	}
	wd.turnEnded()
	if strings.Contains(wd.text(), "queued:") {
		t.Errorf("a queued line stayed:\n%s", wd.text())
	}
	if n := wd.agent.promptCount(); n != 2 {
		t.Errorf("%d prompts, want 2: the withdrawn message was sent", n)
	}
}

func TestWaitingForASlot(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.agent.gate = make(chan struct{})
	wd.do(func() { wd.state = runtime.Waiting })
	wd.typeText("hi")
	wd.press(tcell.KeyEnter)
	wd.waitText("waiting for a free slot")
	wd.do(func() { wd.state = runtime.Starting })
	if !strings.Contains(wd.ruleRow(), "starting the agent") {
		t.Fatalf("rule %q", wd.ruleRow())
	}
	// Esc withdraws the waiting turn.
	wd.press(tcell.KeyEsc)
	if r := wd.turnEnded(); r.StopReason != chat.StopCancelled {
		t.Fatalf("turn ended with %+v", r)
	}
	if n := wd.agent.promptCount(); n != 0 {
		t.Fatalf("a withdrawn turn reached the agent")
	}
	wd.do(func() { wd.state = runtime.Error })
	if !strings.Contains(wd.ruleRow(), "stopped on an error") {
		t.Errorf("rule %q", wd.ruleRow())
	}
	if onUI(wd.harness, wd.w.Busy) {
		t.Error("busy with no turn and the agent in error")
	}
	// An agent starting without a turn of this window (the application starts it when the
	// window opens) shows too, with the spinner.
	wd.do(func() { wd.state = runtime.Starting })
	if !strings.Contains(wd.ruleRow(), "starting the agent") || !onUI(wd.harness, wd.w.Busy) {
		t.Errorf("rule %q while the agent starts", wd.ruleRow())
	}
	if strings.Contains(wd.status(), "Cancel turn") {
		t.Errorf("status bar offers to cancel a turn that does not exist: %q", wd.status())
	}
}

func TestCtrlWClosesAndStopsTheSession(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("/slow")
	wd.ctrl('w')
	if n := onUI(wd.harness, func() int { return len(wd.app.Windows()) }); n != 0 {
		t.Fatalf("%d windows still open", n)
	}
	if r := wd.turnEnded(); !r.Cancelled {
		t.Fatalf("the turn was not cancelled by Ctrl-W: %+v", r)
	}
	wd.settle(wd.w)
	if _, open := wd.svc.Conversation(chat.AgentKey("alice")); open {
		t.Error("the conversation is still open in the service")
	}
}

func TestPermissionInWindow(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("perm")
	wd.waitText("Write notes.txt")
	if !strings.Contains(wd.text(), "Allow once") || !strings.Contains(wd.text(), "Alice") {
		t.Fatalf("the dialog does not show the request:\n%s", wd.text())
	}
	if wd.Screen.Bells() != 0 {
		t.Error("the bell rang for a window in front")
	}
	wd.clock.Advance(typingGuard)
	wd.typeText("1")
	wd.turnEnded()
	wd.waitText("chose yes")

	// Esc on the turn (through the menu or another window) cancels the request: the dialog
	// goes away with it.
	wd.send("perm")
	wd.waitText("Write notes.txt")
	wd.do(func() { wd.w.calls.Do(func() { wd.svc.Cancel(chat.AgentKey("alice")) }) })
	wd.turnEnded()
	wd.waitText("permission cancelled")
	if strings.Contains(wd.text(), "Allow once") {
		t.Errorf("the dialog stayed after the turn was cancelled:\n%s", wd.text())
	}
}

func TestAttentionWhenNotInFront(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	var other *window.Window
	wd.do(func() {
		var err error
		other, err = wd.app.AddWindow("Other", window.NewTextView())
		if err != nil {
			t.Fatal(err)
		}
	})
	// A turn that ends in a window not in front marks it and rings once.
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "hello") }) })
	wd.started()
	wd.turnEnded()
	if !onUI(wd.harness, wd.win.Attention) {
		t.Fatal("the window is not marked after its turn ended out of sight")
	}
	if n := wd.Screen.Bells(); n != 1 {
		t.Fatalf("the bell rang %d times, want once", n)
	}
	if !onUI(wd.harness, wd.win.Unread) {
		t.Error("the window is not marked unread")
	}
	// Focusing it clears the mark.
	wd.do(func() { wd.win.Focus() })
	wd.sync()
	if onUI(wd.harness, wd.win.Attention) {
		t.Error("the mark stayed once the window was in front")
	}
	// A permission asked out of sight marks the window and rings too.
	wd.do(func() { other.Focus() })
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "perm") }) })
	wd.started()
	wd.waitText("Write notes.txt")
	if !onUI(wd.harness, wd.win.Attention) || wd.Screen.Bells() != 2 {
		t.Fatalf("permission out of sight: attention %v, bells %d", onUI(wd.harness, wd.win.Attention), wd.Screen.Bells())
	}
	wd.do(func() { wd.win.Focus() })
	wd.clock.Advance(typingGuard)
	wd.typeText("2")
	wd.turnEnded()
	// Answered from its window, in front: the turn's end rings no more.
	if n := wd.Screen.Bells(); n != 2 {
		t.Errorf("bells %d after the turn's end, want 2", n)
	}
}

func TestUsageInStatusBar(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("usage")
	wd.turnEnded()
	if !strings.Contains(wd.status(), "12.3k of 200k tokens · 0.42 USD") {
		t.Fatalf("status bar: %q", wd.status())
	}
}

func TestFrenchLabels(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withLang(i18n.French))
	wd.send("usage")
	wd.turnEnded()
	if !strings.Contains(wd.status(), "12,3k sur 200k jetons · 0,42 USD") || !strings.Contains(wd.status(), "Envoyer") {
		t.Fatalf("status bar: %q", wd.status())
	}
	if !strings.Contains(wd.text(), "Vous") {
		t.Errorf("the user's label is not French:\n%s", wd.text())
	}
	wd.send("lines 3")
	wd.turnEnded()
	wd.press(tcell.KeyTab)
	wd.press(tcell.KeyUp)
	wd.key(tcell.KeyUp, tcell.ModShift)
	wd.ctrl('c')
	if !strings.Contains(wd.status(), "2 lignes copiées") {
		t.Errorf("status bar after a copy: %q", wd.status())
	}
	wd.golden("french")
}

// failingHistory cannot open any conversation.
type failingHistory struct{}

func (failingHistory) Open(chat.Key) (chat.Transcript, error) { return nil, errors.New("disk on fire") }
func (failingHistory) Flush() error                           { return nil }

func TestOpenFailureIsShown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 60, 12, i18n.English)
	svc := chat.NewService(chat.ServiceOptions{Agents: newTestAgent(t, "alice"), History: failingHistory{}})
	var logged []string
	var w *Widget
	h.do(func() {
		w = New(h.app, svc, chat.AgentKey("alice"), AgentInfo{Name: "alice"}, Options{
			Logf: func(f string, args ...any) { logged = append(logged, fmt.Sprintf(f, args...)) },
		})
		if _, err := h.app.AddWindow("alice", w); err != nil {
			t.Fatal(err)
		}
	})
	h.settled(w, "failure", func() bool { return w.openErr })
	h.sync()
	if !strings.Contains(h.text(), "could not be opened") {
		t.Fatalf("the failure is not shown:\n%s", h.text())
	}
	if strings.Contains(h.text(), "disk on fire") {
		t.Error("a library's error text reached the screen")
	}
	if got := onUI(h, func() string { return strings.Join(logged, "") }); !strings.Contains(got, "disk on fire") {
		t.Errorf("the error was not logged: %q", got)
	}
	// Keys and the mouse do not break a window without a conversation.
	for _, k := range []tcell.Key{tcell.KeyTab, tcell.KeyUp, tcell.KeyPgUp, tcell.KeyEsc, tcell.KeyCtrlC} {
		h.press(k)
	}
	h.mouse(5, 4, tcell.Button1, tcell.ModNone)
	h.mouse(5, 4, tcell.WheelUp, tcell.ModNone)
	h.mouse(5, 4, tcell.ButtonNone, tcell.ModNone)
}

func TestSmallWindows(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.send("lines 30")
	wd.turnEnded()
	wd.paste("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12")
	for _, size := range [][2]int{{40, 10}, {200, 11}, {41, 12}, {60, 20}} {
		wd.resize(size[0], size[1])
		rows := wd.rows()
		if got := rows[len(rows)-4]; !strings.Contains(got, "12") {
			t.Errorf("%v: the input's cursor line is not shown: %q\n%s", size, got, wd.text())
		}
		if !strings.Contains(wd.text(), "─") {
			t.Errorf("%v: no rule:\n%s", size, wd.text())
		}
	}
	// Several windows tile: each agent window fits its tile.
	wd.do(func() {
		for i := 0; i < 8; i++ {
			if _, err := wd.app.AddWindow("other", window.NewTextView()); err != nil {
				t.Fatal(err)
			}
		}
	})
	wd.resize(120, 40)
	wd.do(func() { wd.win.Focus() })
	if !strings.Contains(wd.text(), "line 30") {
		t.Errorf("the agent window's tile does not show the conversation:\n%s", wd.text())
	}
}
