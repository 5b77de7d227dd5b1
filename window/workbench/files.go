package workbench

import (
	"context"
	"path"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// opTimeout bounds one workspace operation (a docker exec that hangs must not keep the
// window's queue forever).
const opTimeout = time.Minute

// FilesOptions configures a Files window.
type FilesOptions struct {
	App   *window.App
	Agent config.Agent
	// Workspace reaches the agent's files; runtime.NewWorkspace(Agent) with OwnFiles when
	// nil.
	Workspace runtime.Workspace
	// OwnFiles are Sidekicks' own files, shown locked with what they are, and refused any
	// change.
	OwnFiles runtime.OwnFiles
	// ASCII draws the marks (protected, folder open or closed) in ASCII; by default they are
	// ASCII only when the locale is not UTF-8.
	ASCII bool
	// Highlighter highlights the file viewed and keeps the results: the application's,
	// shared with the conversations. Nil gives the window one of its own.
	Highlighter *convo.Highlighter
}

// Files is the Files window of an agent: its workspace as a tree on the left (folders
// first, .git hidden), the highlighted file on the right, a status line at the bottom,
// and the actions new file, new folder, rename, delete, edit. Protected files are marked
// and refused any change; a refusal says why on the status line. What the agent changed
// shows on Ctrl-R and whenever the window gets the focus.
type Files struct {
	app   *window.App
	agent config.Agent
	ws    runtime.Workspace
	marks marks
	win   *window.Window
	hl    *convo.Highlighter

	tree       *fileTree
	rows       []treeRow
	sel        int
	offset     int
	treeH      int
	treeW      int
	inView     bool   // the viewer has the keys (Tab)
	selectNext string // the path to highlight once the next listing is in
	// selectFrom is what was highlighted when selectNext was asked for: if the user has
	// moved the highlight since, the listing does not take it back.
	selectFrom string

	view *fileView
	msg  string
	bad  bool // msg is a refusal or a failure

	ctx        context.Context
	cancel     context.CancelFunc
	ops        *jobs.Queue // listings and changes, in order
	reads      *jobs.Queue // the viewer's reads
	refreshing bool
	again      bool
	wasFocused bool

	// The file the viewer wants, read by the reads queue (the latest wins).
	wantMu     sync.Mutex
	want       *runtime.FileInfo
	wantQueued bool
}

// NewFiles returns the Files window's widget and lists the workspace's root.
func NewFiles(opts FilesOptions) *Files {
	ws := opts.Workspace
	if ws == nil {
		ws = runtime.NewWorkspace(opts.Agent, runtime.WorkspaceOptions{Own: opts.OwnFiles})
	}
	f := &Files{
		app:   opts.App,
		agent: opts.Agent,
		ws:    ws,
		marks: localeMarks(),
		tree:  newFileTree(),
		hl:    opts.Highlighter,
		ops:   newQueue(opts.App, "operations of the Files window of "+opts.Agent.Name),
		reads: newQueue(opts.App, "reads of the Files window of "+opts.Agent.Name),
	}
	if opts.ASCII {
		f.marks = asciiMarks
	}
	if f.hl == nil {
		f.hl = convo.NewHighlighter(convo.HighlighterOptions{})
	}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	f.rebuild()
	f.refresh()
	return f
}

// OpenFiles opens a Files window on an agent's workspace.
func OpenFiles(opts FilesOptions) (*Files, *window.Window, error) {
	f := NewFiles(opts)
	w, err := opts.App.AddWindow(f.title(), f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	f.win, f.wasFocused = w, true
	w.OnClose(f.Close)
	return f, w, nil
}

// Close stops what the window still had to do; its window calls it when it closes.
func (f *Files) Close() { f.cancel() }

func (f *Files) title() string { return catalogue.Text(langOf(f.app), tFilesTitle, f.agent.Title) }

// opContext bounds one operation, and ends it when the window closes.
func (f *Files) opContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(f.ctx, opTimeout)
}

// refresh lists every open folder again; what the agent created, changed or deleted
// shows, the highlight stays on the same path, and the file viewed is read again when it
// changed. Refreshes do not pile up: one asked while another runs makes one more after it.
func (f *Files) refresh() {
	if f.refreshing {
		f.again = true
		return
	}
	f.refreshing = true
	dirs := f.tree.openFolders()
	f.ops.Do(func() {
		type listing struct {
			entries []runtime.FileInfo
			err     error
		}
		got := make([]listing, len(dirs))
		for i, d := range dirs {
			ctx, cancel := f.opContext()
			got[i].entries, got[i].err = f.ws.List(ctx, d)
			cancel()
		}
		f.app.Post(func() {
			f.refreshing = false
			for i, d := range dirs {
				f.tree.setListing(d, got[i].entries, got[i].err)
			}
			if got[0].err != nil {
				f.say(true, errorText(langOf(f.app), got[0].err, f.ws.Root(), true, f.ws))
			}
			f.rebuild()
			if f.again {
				f.again = false
				f.refresh()
			}
		})
	})
}

// listFolder lists one folder (opened by the user) and shows its entries.
func (f *Files) listFolder(p string) {
	f.ops.Do(func() {
		ctx, cancel := f.opContext()
		entries, err := f.ws.List(ctx, p)
		cancel()
		f.app.Post(func() {
			f.tree.setListing(p, entries, err)
			if err != nil {
				f.say(true, errorText(langOf(f.app), err, p, true, f.ws))
			}
			f.rebuild()
		})
	})
}

// rebuild recomputes the rows after a change of the tree, keeping the highlight on the
// same path (or on the one asked for), and follows the highlighted file in the viewer.
func (f *Files) rebuild() {
	cur := ""
	if f.sel < len(f.rows) {
		cur = f.rows[f.sel].info.Path
	}
	if f.selectNext != "" {
		if cur == f.selectFrom {
			cur = f.selectNext
		} else {
			f.selectNext = ""
		}
	}
	f.rows = f.tree.rows(path.Base(f.ws.Root()))
	found := false
	for i, r := range f.rows {
		if r.info.Path == cur {
			f.sel, found = i, true
			break
		}
	}
	if found {
		f.selectNext = ""
	}
	f.sel = max(min(f.sel, len(f.rows)-1), 0)
	f.scrollIntoView()
	f.follow()
	f.app.Invalidate()
}

// follow shows the highlighted file in the viewer: read again when its size or time
// changed since it was read.
func (f *Files) follow() {
	r, ok := f.current()
	if !ok || r.info.Dir {
		return
	}
	if v := f.view; v != nil && v.info.Path == r.info.Path && v.info.Size == r.info.Size && v.info.ModTime.Equal(r.info.ModTime) {
		return
	}
	f.showFile(r.info)
}

// showFile asks the reads queue for a file; while it reads, the viewer says so. Reads do
// not pile up when the highlight moves fast: the queue reads the latest file asked for.
func (f *Files) showFile(info runtime.FileInfo) {
	top, left := 0, 0
	if v := f.view; v != nil && v.info.Path == info.Path {
		top, left = v.top, v.left
	}
	f.view = &fileView{info: info, loading: true, top: top, left: left}
	f.wantMu.Lock()
	f.want = &info
	queue := !f.wantQueued
	f.wantQueued = true
	f.wantMu.Unlock()
	if !queue {
		return
	}
	lang := langOf(f.app)
	f.reads.Do(func() {
		f.wantMu.Lock()
		info := *f.want
		f.wantQueued = false
		f.wantMu.Unlock()
		ctx, cancel := f.opContext()
		res := loadView(ctx, f.ws, info, lang, f.hl)
		cancel()
		f.app.Post(func() {
			v := f.view
			if v == nil || v.info.Path != res.info.Path || !v.loading || !v.info.ModTime.Equal(res.info.ModTime) || v.info.Size != res.info.Size {
				return // the viewer has moved on
			}
			v.loading = false
			v.lines, v.notice, v.failed = res.lines, res.notice, res.failed
		})
	})
}

// current returns the highlighted row.
func (f *Files) current() (treeRow, bool) {
	if f.sel < 0 || f.sel >= len(f.rows) {
		return treeRow{}, false
	}
	return f.rows[f.sel], true
}

// say puts a message on the status line: a refusal or failure (bad) or a result.
func (f *Files) say(bad bool, msg string) {
	f.msg, f.bad = msg, bad
	f.app.Invalidate()
}

func (f *Files) move(delta int) {
	f.sel = max(min(f.sel+delta, len(f.rows)-1), 0)
	f.scrollIntoView()
	f.follow()
}

func (f *Files) scrollIntoView() {
	f.offset = window.ScrollToShow(f.offset, f.sel, f.treeH, len(f.rows))
}

// Workspace returns the workspace the window shows.
func (f *Files) Workspace() runtime.Workspace { return f.ws }

// Select highlights a path of the workspace when its row shows; it reports whether it
// does.
func (f *Files) Select(p string) bool {
	for i, r := range f.rows {
		if r.info.Path == p {
			f.sel = i
			f.scrollIntoView()
			f.follow()
			f.app.Invalidate()
			return true
		}
	}
	return false
}
