package chatwin

import (
	"context"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// world is an App on a simulation screen with an agent window open on a real service.
type world struct {
	*harness
	agent *testAgent
	svc   *chat.Service
	w     *Widget
	win   *window.Window
	hl    *convo.Highlighter // the window's, this test's own
	ended chan chat.TurnResult
	state runtime.State
	walks chan int // the number of files of each finished walk
	reqs  *Requests
}

type worldOption func(*worldConfig)

type worldConfig struct {
	width, height int
	lang          i18n.Lang
	files         map[string]string
	noWorkspace   bool
	pageSize      int
	history       chat.History
	// screen, when set, is the screen instead of a simulation screen of width × height.
	screen tcell.Screen
	// noCopy keeps no copy of the frames shown: for benchmarks.
	noCopy bool
	// stopAgent is the window's Options.StopAgent.
	stopAgent func(agent string)
	// hold is the window's Options.HoldEntries.
	hold int
}

func withSize(w, h int) worldOption    { return func(c *worldConfig) { c.width, c.height = w, h } }
func withLang(l i18n.Lang) worldOption { return func(c *worldConfig) { c.lang = l } }
func withScreen(s tcell.Screen, w, h int) worldOption {
	return func(c *worldConfig) { c.screen, c.width, c.height = s, w, h }
}
func withoutFrameCopies() worldOption                { return func(c *worldConfig) { c.noCopy = true } }
func withStopAgent(f func(agent string)) worldOption { return func(c *worldConfig) { c.stopAgent = f } }
func withFiles(files map[string]string) worldOption  { return func(c *worldConfig) { c.files = files } }
func withHold(n int) worldOption                     { return func(c *worldConfig) { c.hold = n } }
func withHistory(h chat.History, page int) worldOption {
	return func(c *worldConfig) { c.history, c.pageSize = h, page }
}

// newWorld opens an agent window on agent "alice" (title "Alice", no icon).
func newWorld(t testing.TB, opts ...worldOption) *world {
	t.Helper()
	cfg := worldConfig{width: 60, height: 20}
	for _, o := range opts {
		o(&cfg)
	}
	h := startHarness(t, windowtest.Config{Screen: cfg.screen, Width: cfg.width, Height: cfg.height, NoCopy: cfg.noCopy}, cfg.lang)
	a := newTestAgent(t, "alice")
	for p, content := range cfg.files {
		writeFile(t, a.dir, p, content)
	}
	wd := &world{harness: h, agent: a, ended: make(chan chat.TurnResult, 100), walks: make(chan int, 100), state: runtime.Ready,
		hl:   convo.NewHighlighter(convo.HighlighterOptions{Go: func(_ string, fn func()) { h.app.Go(fn) }}),
		reqs: NewRequests(h.app)}
	wd.svc = chat.NewService(chat.ServiceOptions{
		Agents:   a,
		History:  cfg.history,
		PageSize: cfg.pageSize,
		Lang:     cfg.lang,
		Permissions: func(k chat.Key) chat.Permissions {
			return Permissions(h.app, PermissionOptions{
				Key:      k,
				Title:    func(string) string { return "Alice" },
				Window:   func() *window.Window { return wd.win },
				Requests: wd.reqs,
			})
		},
		TurnEnded: func(_ chat.Key, r chat.TurnResult) { wd.ended <- r },
	})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		_ = wd.svc.Shutdown(ctx)
	})
	info := AgentInfo{Name: "alice", Title: "Alice", State: func() runtime.State { return wd.state }}
	if !cfg.noWorkspace {
		walk := WalkWorkspace(localWorkspace(a.dir))
		info.Files = func(ctx context.Context, keep func(string) bool, limit int) ([]string, bool, error) {
			files, cut, err := walk(ctx, keep, limit)
			wd.walks <- len(files)
			return files, cut, err
		}
	}
	h.do(func() {
		wd.w = New(h.app, wd.svc, chat.AgentKey("alice"), info, Options{Highlighter: wd.hl, Requests: wd.reqs, StopAgent: cfg.stopAgent, HoldEntries: cfg.hold})
		win, err := h.app.AddWindow("Alice", wd.w)
		if err != nil {
			t.Fatal(err)
		}
		wd.win = win
		wd.w.SetWindow(win)
		win.OnClose(wd.w.Closed)
	})
	h.settled(wd.w, "conversation", func() bool { return wd.w.Conversation() != nil })
	return wd
}

// codeHighlighted waits until the window's Highlighter has done every block asked for so
// far (its idle barrier), then for a frame, and fails if the view still waits for one.
func (wd *world) codeHighlighted() {
	wd.t.Helper()
	select {
	case <-wd.hl.Idle():
	case <-time.After(deadline):
		wd.t.Fatal("the code blocks were not highlighted")
	}
	wd.sync()
	if onUI(wd.harness, func() bool { return wd.w.view.Highlighting() }) {
		wd.t.Fatalf("the view still waits for a highlighting once the Highlighter is idle; screen:\n%s", wd.text())
	}
}

// send types text and Enter, and waits for the agent to start on it.
func (wd *world) send(text string) {
	wd.t.Helper()
	wd.typeText(text)
	wd.press(tcell.KeyEnter)
	wd.started()
}

// started waits for the agent to receive a prompt and returns its first text.
func (wd *world) started() string {
	wd.t.Helper()
	select {
	case text := <-wd.agent.started:
		return text
	case <-time.After(deadline):
		wd.t.Fatalf("the agent received no prompt; screen:\n%s", wd.text())
		return ""
	}
}

// turnEnded waits for the end of a turn, then for a frame.
func (wd *world) turnEnded() chat.TurnResult {
	wd.t.Helper()
	select {
	case r := <-wd.ended:
		wd.sync()
		return r
	case <-time.After(deadline):
		wd.t.Fatalf("no turn ended; screen:\n%s", wd.text())
		return chat.TurnResult{}
	}
}

// walked waits for a walk of the workspace to finish and be shown.
func (wd *world) walked() int {
	wd.t.Helper()
	select {
	case n := <-wd.walks:
		wd.sync()
		return n
	case <-time.After(deadline):
		wd.t.Fatal("the workspace was not walked")
		return 0
	}
}

// input returns the input's text and cursor.
func (wd *world) input() (string, int) {
	type ti struct {
		text   string
		cursor int
	}
	v := onUI(wd.harness, func() ti { return ti{wd.w.input.text, wd.w.input.cursor} })
	return v.text, v.cursor
}
