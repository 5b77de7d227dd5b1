package chatwin

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// agentPool is the supervisor of several test agents.
type agentPool map[string]*testAgent

func (p agentPool) Acquire(ctx context.Context, agent string) (chat.Lease, error) {
	a, ok := p[agent]
	if !ok {
		return nil, errors.New("unknown agent " + agent)
	}
	return a.Acquire(ctx, agent)
}

// hintError is a message routing refused, with what to tell the user.
type hintError struct{ hint string }

func (e *hintError) Error() string { return "refused: " + e.hint }

// chanWorld is an App on a simulation screen with a channel window open on a real
// service, whose agents are alice and bob (members) and carol (not a member).
type chanWorld struct {
	*harness
	agents agentPool
	svc    *chat.Service
	w      *Widget
	win    *window.Window
	ended  chan chat.TurnResult

	mu      sync.Mutex
	members []string
	notes   []string
	files   map[string]Walker // by agent: what @ lists in a command line for it
}

var chanAgents = []Member{
	{Name: "alice", Title: "Alice", Icon: "A", State: runtime.Ready, StateText: "ready"},
	{Name: "bob", Title: "Bob", Icon: "B", State: runtime.Ready, StateText: "ready"},
	{Name: "carol", Title: "Carol", Icon: "C", State: runtime.Stopped, StateText: "stopped"},
}

func newChanWorld(t *testing.T) *chanWorld {
	t.Helper()
	h := newHarness(t, 80, 24, i18n.English)
	cw := &chanWorld{harness: h, agents: agentPool{}, ended: make(chan chat.TurnResult, 100), members: []string{"alice", "bob"}}
	refs := make([]chat.AgentRef, len(chanAgents))
	for i, a := range chanAgents {
		cw.agents[a.Name] = newTestAgent(t, a.Name)
		refs[i] = chat.AgentRef{Name: a.Name, Title: a.Title}
	}
	cw.svc = chat.NewService(chat.ServiceOptions{
		Agents: cw.agents,
		Lang:   i18n.English,
		Route: func(k chat.Key, text string) ([]chat.Delivery, error) {
			cw.mu.Lock()
			defer cw.mu.Unlock()
			r := chat.Route(text, cw.members, refs)
			if r.Rejected() {
				return nil, &hintError{r.HintText(i18n.English)}
			}
			cw.members = append(cw.members, r.Added...)
			if r.Note {
				cw.notes = append(cw.notes, r.HintText(i18n.English))
			}
			var ds []chat.Delivery
			for _, t := range r.Targets {
				ds = append(ds, chat.Delivery{Agent: t.Agent, Text: t.Text})
			}
			return ds, nil
		},
		TurnEnded: func(_ chat.Key, r chat.TurnResult) { cw.ended <- r },
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		_ = cw.svc.Shutdown(ctx)
	})
	member := func(name string) Member {
		for _, a := range chanAgents {
			if a.Name == name {
				return a
			}
		}
		return Member{Name: name, Title: name}
	}
	ch := Channel{
		Members: func() []Member {
			cw.mu.Lock()
			defer cw.mu.Unlock()
			var out []Member
			for _, m := range cw.members {
				out = append(out, member(m))
			}
			return out
		},
		Agents: func() []Member { return chanAgents },
		Files: func(agent string) Walker {
			cw.mu.Lock()
			defer cw.mu.Unlock()
			return cw.files[agent]
		},
		Commands: func(agent string) []chat.Command {
			if agent == "bob" {
				return []chat.Command{{Name: "web", Description: "Search the web", HasInput: true, InputHint: "query"}}
			}
			return nil
		},
		Empty: func() []window.TextLine {
			return []window.TextLine{{Text: "#général"}, {Text: "Both agents, and carol on call"}}
		},
		Status: func() string { return "Both agents, and carol on call" },
		SendError: func(err error) string {
			var he *hintError
			if errors.As(err, &he) {
				return he.hint
			}
			return ""
		},
	}
	h.do(func() {
		cw.w = NewChannel(h.app, cw.svc, chat.ChannelKey(1), ch, Options{})
		win, err := h.app.AddWindow("#général", cw.w)
		if err != nil {
			t.Fatal(err)
		}
		cw.win = win
		cw.w.SetWindow(win)
		win.OnClose(cw.w.Closed)
	})
	h.settled(cw.w, "conversation", func() bool { return cw.w.Conversation() != nil })
	return cw
}

// ends waits for n turns to end and returns them by agent.
func (cw *chanWorld) ends(n int) map[string]chat.TurnResult {
	cw.t.Helper()
	out := map[string]chat.TurnResult{}
	for range n {
		select {
		case r := <-cw.ended:
			out[r.Agent] = r
		case <-time.After(deadline):
			cw.t.Fatalf("%d turns ended, want %d; screen:\n%s", len(out), n, cw.text())
		}
	}
	cw.sync()
	return out
}

// listRows returns the rows of the completion list.
func (cw *chanWorld) listRows() []string {
	lr := onUI(cw.harness, func() rect { return cw.w.listRect })
	rows := cw.rows()
	var out []string
	for i := 0; i < lr.h; i++ {
		out = append(out, strings.Join(strings.Fields(strings.Trim(rows[2+lr.y+i], "║")), " "))
	}
	return out
}

func (cw *chanWorld) inputText() string {
	return onUI(cw.harness, func() string { return cw.w.input.text })
}

func (cw *chanWorld) ruleRow() string {
	for _, row := range cw.rows() {
		if strings.HasPrefix(row, "║─") {
			return row
		}
	}
	cw.t.Fatalf("no rule on screen:\n%s", cw.text())
	return ""
}

func TestChannelWindowEmptyAndCompletion(t *testing.T) {
	t.Parallel()
	cw := newChanWorld(t)
	cw.waitText("Both agents, and carol on call")
	if s := cw.text(); !strings.Contains(s, "#général") || !strings.Contains(s, "Both agents, and carol on call") {
		t.Fatalf("the empty channel:\n%s", s)
	}
	if rule := cw.ruleRow(); !strings.Contains(rule, "A Alice: ready · B Bob: ready") {
		t.Errorf("rule %q, want the members and their states", rule)
	}
	if s := cw.rows()[23]; !strings.Contains(s, "Both agents, and carol on call") {
		t.Errorf("the status bar %q lacks the description", s)
	}

	// @ lists the members first, then the other agents.
	cw.typeText("@")
	want := []string{"@alice A Alice ready", "@bob B Bob ready", "@carol C Carol stopped"}
	if got := cw.listRows(); !slices.Equal(got, want) {
		t.Fatalf("@ list %q, want %q\n%s", got, want, cw.text())
	}
	cw.typeText("c")
	if got := cw.listRows(); !slices.Equal(got, want[2:]) {
		t.Fatalf("@c list %q", got)
	}
	cw.press(tcell.KeyTab)
	if got := cw.inputText(); got != "@carol " {
		t.Fatalf("input after Tab %q", got)
	}

	// / lists the members' commands as name:command: bob's from elsewhere, alice's once
	// announced here.
	cw.ctrl('u')
	cw.typeText("/")
	if got := cw.listRows(); !slices.Equal(got, []string{"/bob:web Search the web <query>"}) {
		t.Fatalf("/ list before alice announced hers: %q", got)
	}
	cw.press(tcell.KeyEsc)
	cw.ctrl('u')
	cw.typeText("@alice commands")
	cw.press(tcell.KeyEnter)
	cw.ends(1)
	// The test agent answers by its prompt's first words: in a channel the message keeps
	// its mention, so alice did not take it as "commands". Ask her as her command would.
	alice := cw.agents["alice"]
	alice.handler().Update(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
		AvailableCommands: []sdk.AvailableCommand{{Name: "echo", Description: "Repeat the text"}},
	}})
	cw.typeText("/ech")
	if got := cw.listRows(); !slices.Equal(got, []string{"/alice:echo Repeat the text"}) {
		t.Fatalf("/ech list %q", got)
	}
	cw.press(tcell.KeyTab)
	if got := cw.inputText(); got != "/alice:echo" {
		t.Fatalf("input after Tab %q", got)
	}
}

func TestChannelWindowAgentsAnswerTogether(t *testing.T) {
	t.Parallel()
	cw := newChanWorld(t)
	cw.typeText("@alice @bob hi")
	cw.press(tcell.KeyEnter)
	ends := cw.ends(2)
	if ends["alice"].StopReason != chat.StopEndTurn || ends["bob"].StopReason != chat.StopEndTurn {
		t.Fatalf("turns %+v", ends)
	}
	cw.waitText("re: @alice @bob hi")
	s := cw.text()
	if strings.Count(s, "re: @alice @bob hi") != 2 || !strings.Contains(s, "Alice") || !strings.Contains(s, "Bob") {
		t.Errorf("both replies, labelled, expected:\n%s", s)
	}
	if rows := cw.rows(); strings.Contains(strings.Join(rows[:len(rows)-2], "\n"), "carol on call") {
		t.Errorf("the empty channel's text is still shown:\n%s", s)
	}

	// A note: the rule says how to address someone, until the input changes.
	cw.typeText("note to self")
	cw.press(tcell.KeyEnter)
	cw.settled(cw.w, "note", func() bool { return cw.w.Conversation().Len() == 4 })
	cw.mu.Lock()
	notes := slices.Clone(cw.notes)
	cw.mu.Unlock()
	if len(notes) != 1 {
		t.Fatalf("notes %q", notes)
	}
	cw.do(func() { cw.w.ShowHint(notes[0]) })
	if rule := cw.ruleRow(); !strings.Contains(rule, "Nobody was addressed") {
		t.Errorf("rule %q, want the hint", rule)
	}
	cw.typeText("x")
	if rule := cw.ruleRow(); strings.Contains(rule, "Nobody was addressed") {
		t.Errorf("the hint stayed after typing: %q", rule)
	}

	// A refused command keeps its text, and says why.
	cw.ctrl('u')
	cw.typeText("/echo hi")
	cw.press(tcell.KeyEnter)
	cw.waitText("a command names its agent")
	if got := cw.inputText(); got != "/echo hi" {
		t.Errorf("the input holds %q after a refused command", got)
	}
	if n := cw.w.Conversation().Len(); n != 4 {
		t.Errorf("%d entries after a refused command, want 4", n)
	}
}

func TestChannelWindowEscCancelsEveryTurn(t *testing.T) {
	t.Parallel()
	cw := newChanWorld(t)
	// A window in front of the channel's: what the agents say marks it unread.
	other := window.NewTextView()
	cw.do(func() {
		if _, err := cw.app.AddWindow("other", other); err != nil {
			t.Fatal(err)
		}
	})
	cw.do(func() { cw.win.Focus() })
	cw.typeText("/alice:slow")
	cw.press(tcell.KeyEnter)
	cw.typeText("/bob:slow")
	cw.press(tcell.KeyEnter)
	for _, a := range []string{"alice", "bob"} {
		select {
		case <-cw.agents[a].started:
		case <-time.After(deadline):
			t.Fatalf("%s did not start", a)
		}
	}
	cw.waitFor("both turns", func() bool { return len(cw.svc.Turns(chat.ChannelKey(1))) == 2 })
	cw.press(tcell.KeyEsc)
	for a, r := range cw.ends(2) {
		if r.StopReason != chat.StopCancelled {
			t.Errorf("%s: %+v", a, r)
		}
	}

	// Not in front: a turn that ends marks the window.
	cw.do(func() { cw.app.FocusNumber(2) })
	cw.do(func() {
		if cw.win.Unread() {
			t.Error("the window is unread before anything new")
		}
	})
	if err := cw.svc.Send(chat.ChannelKey(1), "@bob hello"); err != nil {
		t.Fatal(err)
	}
	cw.ends(1)
	cw.waitFor("the mark", func() bool { return cw.win.Unread() && cw.win.Attention() })
}
