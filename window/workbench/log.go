package workbench

import (
	"strings"
	"sync"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// LogOptions configures a Log window.
type LogOptions struct {
	App   *window.App
	Agent config.Agent
	Log   *runtime.AgentLog
}

// LogView is the Log window of an agent: what its log keeps in memory (its stderr, the
// output of its lifecycle commands prefixed "sandbox: " and of afterStop, and the
// supervisor's events, each with its time), following new lines while it shows the end,
// staying where it is when scrolled up. The log has already made control characters
// visible, and the screen draws nothing raw either.
type LogView struct {
	app   *window.App
	agent config.Agent
	log   *runtime.AgentLog
	win   *window.Window

	lines []logRow
	seen  int64 // log.Total() when lines were last taken
	back  int   // rows scrolled up from the end (0: following)
	width int   // the width rows are wrapped for
	rows  int   // rows of all lines at width (-1: not counted yet)
	viewH int

	stop    func()
	mu      sync.Mutex
	pending bool
}

// logRow is one line of the log and its rows at the view's width.
type logRow struct {
	text    string
	class   window.Class
	wrapped []string
}

// NewLog returns the Log window's widget, following the agent's log until Close.
func NewLog(opts LogOptions) *LogView {
	v := &LogView{app: opts.App, agent: opts.Agent, log: opts.Log, rows: -1}
	v.pull()
	changed, cancel := v.log.Subscribe()
	done := make(chan struct{})
	var once sync.Once
	v.stop = func() {
		once.Do(func() {
			close(done)
			cancel()
		})
	}
	v.app.Go(func() {
		for {
			select {
			case <-changed:
				v.mu.Lock()
				post := !v.pending
				v.pending = true
				v.mu.Unlock()
				if post {
					v.app.Post(v.pull)
				}
			case <-done:
				return
			}
		}
	})
	return v
}

// OpenLog opens a Log window on an agent's log.
func OpenLog(opts LogOptions) (*LogView, *window.Window, error) {
	v := NewLog(opts)
	w, err := opts.App.AddWindow(v.title(), v)
	if err != nil {
		v.Close()
		return nil, nil, err
	}
	v.win = w
	w.OnClose(v.Close)
	return v, w, nil
}

// Close stops following the log; its window calls it when it closes.
func (v *LogView) Close() { v.stop() }

func (v *LogView) title() string { return catalogue.Text(langOf(v.app), tLogTitle, v.agent.Title) }

// pull takes the lines added since the last time. The log's count and its lines are read
// apart, so a line may come in between: the count is read on both sides, and when it
// moved the lines are taken whole.
func (v *LogView) pull() {
	v.mu.Lock()
	v.pending = false
	v.mu.Unlock()
	var lines []runtime.LogLine
	var total int64
	consistent := false
	for try := 0; try < 3 && !consistent; try++ {
		before := v.log.Total()
		lines = v.log.Lines()
		total = v.log.Total()
		consistent = before == total
	}
	added := int(total - v.seen)
	if !consistent || added > len(lines) || added < 0 {
		v.lines = v.lines[:0]
		added = len(lines)
	}
	v.seen = total
	if added == 0 {
		return
	}
	newRows := 0
	for _, l := range lines[len(lines)-added:] {
		row := logRow{text: l.Time.Format("15:04:05") + "  " + l.Text, class: logClass(l.Text)}
		if v.width > 0 {
			row.wrapped = window.Wrap(row.text, v.width)
			newRows += len(row.wrapped)
		}
		v.lines = append(v.lines, row)
	}
	// The view keeps what the log keeps.
	if drop := len(v.lines) - max(len(lines), runtime.DefaultLogLines); drop > 0 {
		v.lines = append(v.lines[:0:0], v.lines[drop:]...)
		v.rows = -1
	}
	if v.back > 0 {
		v.back += newRows // stay on the same lines while scrolled up
	}
	if v.rows >= 0 {
		v.rows += newRows
	}
	v.app.Invalidate()
}

// logClass tells Sidekicks' own events and the lifecycle's output from the agent's.
func logClass(text string) window.Class {
	switch {
	case strings.HasPrefix(text, "sidekicks: "):
		return window.ClassComment
	case strings.HasPrefix(text, "sandbox: "), strings.HasPrefix(text, "afterStop: "):
		return window.ClassType
	}
	return window.ClassText
}

// rewrap wraps every line again for a new width.
func (v *LogView) rewrap(width int) {
	if width == v.width {
		return
	}
	v.width, v.rows = width, 0
	for i := range v.lines {
		v.lines[i].wrapped = window.Wrap(v.lines[i].text, width)
		v.rows += len(v.lines[i].wrapped)
	}
}

// totalRows counts the rows of every line.
func (v *LogView) totalRows() int {
	if v.rows < 0 {
		v.rows = 0
		for _, l := range v.lines {
			v.rows += len(l.wrapped)
		}
	}
	return v.rows
}

// Draw shows where the log's file is, then the rows that end back rows above the end,
// drawn from the bottom up.
func (v *LogView) Draw(r window.Region, focused bool) {
	W, H := r.Size()
	lang := langOf(v.app)
	retitle(v.app, v.win, v.title())
	head := catalogue.Text(lang, tLogFile, v.log.Path())
	if v.log.Path() == "" {
		head = catalogue.Text(lang, tLogMemory)
	}
	r.Line(0, " "+window.Truncate(head, max(W-2, 0)), window.ClassGutter)
	v.rewrap(max(W-2, 1))
	v.viewH = max(H-1, 0)
	v.back = max(min(v.back, v.totalRows()-v.viewH), 0)
	body := r.Sub(0, 1, W, v.viewH)
	body.Fill(window.ClassText)
	if len(v.lines) == 0 {
		body.Line(0, " "+catalogue.Text(lang, tLogEmpty), window.ClassGutter)
		return
	}
	y, skip := v.viewH-1, v.back
	for i := len(v.lines) - 1; i >= 0 && y >= 0; i-- {
		l := v.lines[i]
		for j := len(l.wrapped) - 1; j >= 0 && y >= 0; j-- {
			if skip > 0 {
				skip--
				continue
			}
			body.Text(1, y, l.wrapped[j], l.class)
			y--
		}
	}
}

// HandleEvent scrolls: arrows by a row, pages by a screen, Home to the start, End back
// to following.
func (v *LogView) HandleEvent(ev window.Event) bool {
	page := max(v.viewH-1, 1)
	switch ev := ev.(type) {
	case window.Key:
		switch {
		case ev.Is(window.Named(window.KeyUp, 0)):
			v.back++
		case ev.Is(window.Named(window.KeyDown, 0)):
			v.back--
		case ev.Is(window.Named(window.KeyPgUp, 0)):
			v.back += page
		case ev.Is(window.Named(window.KeyPgDn, 0)):
			v.back -= page
		case ev.Is(window.Named(window.KeyHome, 0)):
			v.back = v.totalRows()
		case ev.Is(window.Named(window.KeyEnd, 0)):
			v.back = 0
		default:
			return false
		}
	case window.Mouse:
		switch ev.Action {
		case window.MouseWheelUp:
			v.back += 3
		case window.MouseWheelDown:
			v.back -= 3
		default:
			return false
		}
	default:
		return false
	}
	v.back = max(min(v.back, v.totalRows()-v.viewH), 0)
	return true
}

// Following reports whether the view shows the end of the log (new lines scroll in).
func (v *LogView) Following() bool { return v.back == 0 }

// Hints returns the window's keys for the status bar.
func (v *LogView) Hints() []window.Hint {
	lang := langOf(v.app)
	return []window.Hint{{Keys: "↑↓ PgUp PgDn", Text: catalogue.Text(lang, tHintScroll)}, {Keys: "End", Text: catalogue.Text(lang, tHintFollow)}}
}
