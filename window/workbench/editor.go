package workbench

import (
	"context"
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// EditorOptions configures a built-in editor window.
type EditorOptions struct {
	App       *window.App
	Workspace runtime.Workspace
	// Path is the file, relative to the workspace; Content what it holds (UTF-8 text).
	Path    string
	Content []byte
	// Owner is the agent's title, shown in the window's title.
	Owner string
	// OnSaved runs on the screen's goroutine after each save (the Files window lists
	// again).
	OnSaved func()
}

// Editor is the built-in editor: a window on one file of a workspace, edited in memory
// and saved through the workspace (atomically, and refused for a protected file). Keys:
// the arrows, Home, End, PgUp, PgDn, Ctrl-Home, Ctrl-End move; typing, Enter (keeping the
// indentation), Tab, Backspace, Delete and a paste edit; Ctrl-S saves; Esc or Ctrl-W
// leaves, asking first when the text changed since it was saved.
type Editor struct {
	app     *window.App
	ws      runtime.Workspace
	path    string
	owner   string
	onSaved func()
	win     *window.Window
	marks   marks
	ops     *jobs.Queue
	ctx     context.Context
	cancel  context.CancelFunc

	buf           *textBuffer
	top, left     int
	height, width int
	follow        bool // keep the cursor in view (false after a scroll with the wheel)
	saving        bool
	msg           string
	bad           bool
}

// OpenEditor opens a built-in editor window on a file.
func OpenEditor(opts EditorOptions) (*Editor, *window.Window, error) {
	e := &Editor{
		app: opts.App, ws: opts.Workspace, path: opts.Path, owner: opts.Owner, onSaved: opts.OnSaved,
		ops: newQueue(opts.App, "saves of the editor of "+opts.Path), buf: newTextBuffer(string(opts.Content)), follow: true, marks: localeMarks(),
	}
	e.ctx, e.cancel = context.WithCancel(context.Background())
	w, err := opts.App.AddWindow(e.title(), e)
	if err != nil {
		e.cancel()
		return nil, nil, err
	}
	e.win = w
	w.OnClose(e.cancel)
	return e, w, nil
}

func (e *Editor) title() string {
	t := e.path + " — " + e.owner
	if e.buf.modified() {
		t = e.marks.modified + " " + t
	}
	return t
}

// Text returns what the editor holds.
func (e *Editor) Text() string { return e.buf.String() }

// Modified reports whether the text changed since it was last saved.
func (e *Editor) Modified() bool { return e.buf.modified() }

// HandleEvent edits and moves; see Editor.
func (e *Editor) HandleEvent(ev window.Event) bool {
	b := e.buf
	switch ev := ev.(type) {
	case window.Paste:
		b.insert(ev.Text)
	case window.Key:
		e.msg = ""
		switch {
		case ev.Is(window.Ctrl('s')):
			e.save(false)
		case ev.Is(window.Named(window.KeyEsc, 0)), ev.Is(window.Ctrl('w')):
			e.leave()
		case ev.Is(window.Named(window.KeyEnter, 0)):
			b.newline()
		case ev.Is(window.Named(window.KeyTab, 0)):
			b.insert("\t")
		case ev.Is(window.Named(window.KeyBackspace, 0)):
			b.backspace()
		case ev.Is(window.Named(window.KeyDelete, 0)):
			b.del()
		case ev.Is(window.Named(window.KeyLeft, 0)):
			b.left()
		case ev.Is(window.Named(window.KeyRight, 0)):
			b.right()
		case ev.Is(window.Named(window.KeyUp, 0)):
			b.vertical(-1)
		case ev.Is(window.Named(window.KeyDown, 0)):
			b.vertical(1)
		case ev.Is(window.Named(window.KeyPgUp, 0)):
			b.vertical(-max(e.height-1, 1))
		case ev.Is(window.Named(window.KeyPgDn, 0)):
			b.vertical(max(e.height-1, 1))
		case ev.Is(window.Named(window.KeyHome, window.ModCtrl)):
			b.moveTo(0, 0)
		case ev.Is(window.Named(window.KeyEnd, window.ModCtrl)):
			b.moveTo(len(b.lines)-1, 1<<30)
		case ev.Is(window.Named(window.KeyHome, 0)):
			b.home()
		case ev.Is(window.Named(window.KeyEnd, 0)):
			b.end()
		case ev.Printable():
			b.insert(string(ev.Rune))
		default:
			return false
		}
	case window.Mouse:
		switch ev.Action {
		case window.MouseWheelUp:
			e.top, e.follow = max(e.top-3, 0), false
			return true
		case window.MouseWheelDown:
			e.top, e.follow = max(min(e.top+3, len(b.lines)-1), 0), false
			return true
		case window.MousePress:
			if ev.Y < e.height {
				b.moveTo(e.top+ev.Y, e.left+ev.X-e.gutter())
			}
		default:
			return false
		}
	default:
		return false
	}
	e.follow = true
	retitle(e.app, e.win, e.title())
	return true
}

// save writes the text through the workspace; close closes the window once it is saved.
func (e *Editor) save(close bool) {
	if e.saving {
		return
	}
	e.saving = true
	data, gen := []byte(e.buf.String()), e.buf.gen
	lang := langOf(e.app)
	e.ops.Do(func() {
		ctx, cancel := context.WithTimeout(e.ctx, opTimeout)
		err := e.ws.WriteFile(ctx, e.path, data)
		cancel()
		e.app.Post(func() {
			e.saving = false
			if err != nil {
				e.msg, e.bad = errorText(lang, err, e.path, false, e.ws), true
				return
			}
			e.buf.saved = gen
			e.msg, e.bad = catalogue.Text(lang, tSaved, e.path), false
			retitle(e.app, e.win, e.title())
			if e.onSaved != nil {
				e.onSaved()
			}
			if close && e.win != nil {
				e.win.Close()
			}
		})
	})
}

// leave closes the window, asking first what to do with changes not saved.
func (e *Editor) leave() {
	if !e.buf.modified() {
		if e.win != nil {
			e.win.Close()
		}
		return
	}
	lang := langOf(e.app)
	items := []window.ChoiceItem{{Text: catalogue.Text(lang, tLeaveSave)}, {Text: catalogue.Text(lang, tLeaveDiscard)}, {Text: catalogue.Text(lang, tLeaveKeep)}}
	e.app.Choose(window.Choice{Title: catalogue.Text(lang, tLeaveTitle, e.path), Items: items}, func(i int, ok bool) {
		switch {
		case !ok || i == 2:
		case i == 0:
			e.save(true)
		case e.win != nil:
			e.win.Close()
		}
	})
}

// gutter is the width of the line numbers' column.
func (e *Editor) gutter() int { return max(len(strconv.Itoa(len(e.buf.lines))), 3) + 1 }

// Draw shows the lines in view with their numbers, the cursor, and a status line.
func (e *Editor) Draw(r window.Region, focused bool) {
	W, H := r.Size()
	lang := langOf(e.app)
	retitle(e.app, e.win, e.title())
	b := e.buf
	g := e.gutter()
	e.height, e.width = max(H-1, 0), max(W-g, 1)
	ccol := b.cursorColumn()
	if e.follow {
		e.top = max(min(e.top, b.row), b.row-e.height+1, 0)
		e.left = max(min(e.left, ccol), ccol-e.width+1, 0)
	}
	for y := 0; y < e.height; y++ {
		i := e.top + y
		r.Line(y, "", window.ClassText)
		if i >= len(b.lines) {
			continue
		}
		n := strconv.Itoa(i + 1)
		r.Text(0, y, strings.Repeat(" ", g-1-len(n))+n+" ", window.ClassGutter)
		r.Sub(g, y, W-g, 1).Text(-e.left, 0, expandTabs(b.lines[i]), window.ClassText)
	}
	status := " " + catalogue.Text(lang, tEditorPosition, b.row+1, ccol+1)
	if b.modified() {
		status += "  " + e.marks.modified + " " + catalogue.Text(lang, tModified)
	}
	cls := window.ClassGutter
	if e.msg != "" {
		status += "  " + e.msg
		if e.bad {
			cls = window.ClassError
		}
	}
	if H > 0 {
		r.Line(H-1, status, cls)
	}
	if focused && b.row >= e.top && b.row < e.top+e.height {
		r.ShowCursor(g+ccol-e.left, b.row-e.top)
	}
}

// Hints returns the editor's keys for the status bar.
func (e *Editor) Hints() []window.Hint {
	lang := langOf(e.app)
	return []window.Hint{{Keys: "Ctrl-S", Text: catalogue.Text(lang, tHintSave)}, {Keys: "Esc", Text: catalogue.Text(lang, tHintClose)}}
}
