package workbench

import (
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// maxMessageRows is how many rows a message (a refusal says why at length) may take at
// the bottom of the window.
const maxMessageRows = 3

// treeWidth is the tree's share of the window's width, from the last frame.
func (f *Files) treeWidth() int { return f.treeW }

// Draw shows the tree, a rule, the viewer, and the status line.
func (f *Files) Draw(r window.Region, focused bool) {
	W, H := r.Size()
	lang := langOf(f.app)
	if f.win != nil {
		retitle(f.app, f.win, f.title())
		// The agent may have changed its files while the window was in the background.
		if now := f.win.Focused(); now != f.wasFocused {
			f.wasFocused = now
			if now {
				f.refresh()
			}
		}
	}
	status := f.statusRows(lang, W)
	paneH := max(H-len(status), 0)
	f.treeW = W
	if W >= 30 {
		f.treeW = max(min(W/3, 40), 16)
	}
	f.treeH = paneH
	f.scrollIntoView()
	f.drawTree(r.Sub(0, 0, f.treeW, paneH), focused && !f.inView)
	if f.treeW < W {
		for y := 0; y < paneH; y++ {
			r.Text(f.treeW, y, "│", window.ClassGutter)
		}
		f.drawView(r.Sub(f.treeW+1, 0, W-f.treeW-1, paneH), lang)
	}
	for i, s := range status {
		r.Line(paneH+i, s.text, s.class)
	}
}

// statusRows is the bottom of the window: the last message (wrapped, it may take a few
// rows) or what the highlighted entry is.
func (f *Files) statusRows(lang i18n.Lang, W int) []styledSpan {
	if f.msg != "" {
		cls := window.ClassReady
		if f.bad {
			cls = window.ClassError
		}
		var out []styledSpan
		for _, row := range window.Wrap(f.msg, max(W-2, 1)) {
			if len(out) == maxMessageRows {
				break
			}
			out = append(out, styledSpan{text: " " + row, class: cls})
		}
		return out
	}
	r, ok := f.current()
	if !ok {
		return []styledSpan{{class: window.ClassGutter}}
	}
	s := " " + r.info.Path
	if r.info.Path == rootPath {
		s = " " + f.ws.Root()
	}
	if !r.info.Dir {
		s += "  " + humanSize(r.info.Size)
	}
	if r.info.Protected {
		s += "  " + f.marks.protected
	}
	if r.info.Own != runtime.OwnNone {
		s += "  " + filesCatalogue.Text(lang, fOwnFile, r.info.Own.Reason(lang))
	}
	if v := f.view; v != nil && v.info.Path == r.info.Path && v.loading {
		s += "  " + catalogue.Text(lang, tLoading)
	}
	return []styledSpan{{text: s, class: window.ClassGutter}}
}

// drawTree draws the rows of the tree in view.
func (f *Files) drawTree(r window.Region, focused bool) {
	W, H := r.Size()
	lang := langOf(f.app)
	for y := 0; y < H; y++ {
		i := f.offset + y
		if i >= len(f.rows) {
			r.Line(y, "", window.ClassText)
			continue
		}
		row := f.rows[i]
		cls := window.ClassText
		switch {
		case row.info.Protected:
			cls = window.ClassFileProtected
		case row.info.Dir:
			cls = window.ClassFileFolder
		}
		if i == f.sel {
			cls = window.ClassSelection
			if focused {
				cls = window.ClassListSelected
			}
		}
		var b strings.Builder
		b.WriteString(" ")
		b.WriteString(strings.Repeat("  ", row.depth))
		switch d := f.tree.folders[row.info.Path]; {
		case row.info.Dir && d != nil && d.open:
			b.WriteString(f.marks.open + " ")
		case row.info.Dir:
			b.WriteString(f.marks.closed + " ")
		default:
			b.WriteString("  ")
		}
		b.WriteString(row.info.Name)
		if row.info.Dir && !strings.HasSuffix(row.info.Name, "/") {
			b.WriteString("/")
		}
		if row.info.Protected {
			b.WriteString(" " + f.marks.protected)
		}
		if d := f.tree.folders[row.info.Path]; row.info.Dir && d != nil && d.open {
			switch {
			case !d.listed:
				b.WriteString("  " + catalogue.Text(lang, tLoading))
			case len(d.entries) == 0:
				b.WriteString("  " + catalogue.Text(lang, tEmptyFolder))
			}
		}
		r.Line(y, window.Truncate(b.String(), W), cls)
	}
}

// drawView draws the file viewed: a notice first when there is one, then its lines with
// their numbers.
func (f *Files) drawView(r window.Region, lang i18n.Lang) {
	W, H := r.Size()
	r.Fill(window.ClassText)
	v := f.view
	if v == nil {
		return
	}
	v.height = H
	if v.loading {
		r.Line(0, " "+catalogue.Text(lang, tLoading), window.ClassGutter)
		return
	}
	v.clamp()
	y, line := 0, v.top
	if v.notice != "" {
		if v.top == 0 {
			cls := window.ClassWarning
			if v.failed {
				cls = window.ClassError
			}
			for _, row := range window.Wrap(v.notice, max(W-2, 1)) {
				if y < H {
					r.Line(y, " "+row, cls)
					y++
				}
			}
		} else {
			line-- // the notice is the first row
		}
	}
	digits := max(len(strconv.Itoa(len(v.lines))), 3)
	gutter := digits + 1
	for ; y < H && line < len(v.lines); y, line = y+1, line+1 {
		if line < 0 {
			continue
		}
		n := strconv.Itoa(line + 1)
		r.Text(0, y, strings.Repeat(" ", digits-len(n))+n+" ", window.ClassGutter)
		code := r.Sub(gutter, y, W-gutter, 1)
		x := -v.left
		for _, sp := range v.lines[line] {
			x += code.Text(x, 0, sp.text, sp.class)
		}
	}
}
