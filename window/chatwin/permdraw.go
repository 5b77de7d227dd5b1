package chatwin

import (
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// maxDiffRows is the most rows of a request's diff shown in the window; the conversation's
// tool call shows it whole.
const maxDiffRows = 8

// panelLine is one row of the request as the window shows it: a text on the left, a mark
// on the right (an option's kind).
type panelLine struct {
	text  string
	class window.Class
	mark  string
	markC window.Class
}

// requestLines are the rows that show r (n requests waiting in all), at most maxRows:
// who asks, the tool call's title, its kind and locations, the command, the diff, the
// numbered options and the keys. When they do not fit, the diff goes first, then the
// locations and the command.
func (w *Widget) requestLines(r *Request, n, maxRows int) []panelLine {
	lang := w.app.Language()
	head := []panelLine{{text: "! " + catalogue.Text(lang, tRequestAsks, r.Who), class: window.ClassDialogTitle}}
	if n > 1 {
		head[0].mark, head[0].markC = catalogue.Text(lang, tRequestMore, n-1), window.ClassAttention
	}
	head = append(head, panelLine{text: "  " + r.Req.Title, class: window.ClassDialogTitle})
	var about []panelLine
	if meta := toolMeta(r.Req.Tool); meta != "" {
		about = append(about, panelLine{text: "  " + meta, class: window.ClassDialog})
	}
	if r.Req.Command != "" {
		about = append(about, panelLine{text: "  $ " + r.Req.Command, class: window.ClassDialog})
	}
	opts := make([]panelLine, 0, min(len(r.Req.Options), maxNumbered)+1)
	for i, o := range r.Req.Options {
		if i == maxNumbered {
			opts = append(opts, panelLine{text: "  " + catalogue.Text(lang, tRequestMoreOptions, len(r.Req.Options)-i), class: window.ClassDialog})
			break
		}
		kind, class := kindText(lang, o.Kind)
		opts = append(opts, panelLine{text: "  " + strconv.Itoa(i+1) + "  " + o.Name, class: window.ClassDialog, mark: kind, markC: class})
	}
	keys := panelLine{text: " " + w.requestKeysText(r, n), class: window.ClassComment}
	fixed := len(head) + len(opts) + 1
	if fixed+len(about) > maxRows {
		about = nil
	}
	diff := diffLines(r.Req.Tool, min(maxDiffRows, maxRows-fixed-len(about)))
	out := append(head, about...)
	out = append(out, diff...)
	out = append(out, opts...)
	out = append(out, keys)
	if len(out) > maxRows {
		out = append(out[:max(maxRows-1, 0)], keys)[:max(maxRows, 0)]
	}
	return out
}

// requestKeysText says which keys answer: the confirmation an "always" answer waits for;
// that none does yet (the window is not in front, the request just came, the user types);
// or the numbers and the keys per kind (with "reject all" when more than one waits), and
// whether the input must be left first.
func (w *Widget) requestKeysText(r *Request, n int) string {
	lang := w.app.Language()
	if p := &w.perm; p.confirm > 0 && p.confirm <= len(r.Req.Options) {
		return catalogue.Text(lang, tRequestConfirm, r.Req.Options[p.confirm-1].Name)
	}
	switch p := &w.perm; {
	case p.shownAt.IsZero():
		return catalogue.Text(lang, tRequestNotInFront)
	case !w.armed(w.app.Now()):
		return catalogue.Text(lang, tRequestSoon)
	}
	last := min(len(r.Req.Options), maxNumbered)
	var kinds []string
	for _, k := range []struct {
		key  rune
		kind string
	}{{keyAllowOnce, "allow_once"}, {keyRejectOnce, "reject_once"}, {keyAllowAlways, "allow_always"}, {keyRejectAlways, "reject_always"}} {
		if optionOfKind(r, k.kind) >= 0 {
			name, _ := kindText(lang, k.kind)
			kinds = append(kinds, string(k.key)+" "+name)
		}
	}
	s := catalogue.Text(lang, tRequestKeys, last)
	if len(kinds) > 0 {
		s += " · " + strings.Join(kinds, " · ")
	}
	s += " · " + catalogue.Text(lang, tRequestEsc)
	if n > 1 { // first: what a flood calls for
		s = catalogue.Text(lang, tRequestRejectAll, string(keyRejectAll), n) + " · " + s
	}
	if !w.mayAnswer() {
		s = catalogue.Text(lang, tRequestLeaveInput) + " " + s
	}
	return s
}

// toolMeta is a tool call's kind and locations (or, without any, the files its diffs write)
// on one line: "edit · /w/a.go:12, /w/b.go".
func toolMeta(t chat.ToolCall) string {
	var parts []string
	if t.Kind != "" {
		parts = append(parts, t.Kind)
	}
	var locs []string
	where := t.Locations
	if len(where) == 0 { // the files its diffs write, then
		for _, c := range t.Content {
			if c.Type == "diff" && c.Path != "" {
				where = append(where, chat.Location{Path: c.Path})
			}
		}
	}
	for i, l := range where {
		if i == 3 {
			locs = append(locs, "…")
			break
		}
		s := l.Path
		if l.Line > 0 {
			s += ":" + strconv.Itoa(l.Line)
		}
		locs = append(locs, s)
	}
	if len(locs) > 0 {
		parts = append(parts, strings.Join(locs, ", "))
	}
	return strings.Join(parts, " · ")
}

// diffLines are the first rows of the tool call's first diff, at most max (the last one
// then says how many more there are); none when it has no diff.
func diffLines(t chat.ToolCall, maxRows int) []panelLine {
	if maxRows <= 0 {
		return nil
	}
	for _, c := range t.Content {
		if c.Type != "diff" {
			continue
		}
		var out []panelLine
		var lines []convo.DiffLine
		for _, l := range convo.UnifiedDiff(c.Path, c.OldText, c.NewText) {
			if l.Op != 'h' || strings.HasPrefix(l.Text, "@@") { // the path is on the line above
				lines = append(lines, l)
			}
		}
		for i, l := range lines {
			if len(out) == maxRows-1 && i < len(lines)-1 {
				out = append(out, panelLine{text: "  … +" + strconv.Itoa(len(lines)-i), class: window.ClassComment})
				break
			}
			class := classOf(convo.ClassText)
			text := "  " + string(l.Op) + l.Text
			switch l.Op {
			case '-':
				class = classOf(convo.ClassRemoved)
			case '+':
				class = classOf(convo.ClassAdded)
			case 'h':
				class, text = window.ClassComment, "  "+l.Text
			}
			out = append(out, panelLine{text: text, class: class})
		}
		return out
	}
	return nil
}

// drawRequest draws the request's rows at the bottom of r.
func drawRequest(r window.Region, lines []panelLine) {
	W, H := r.Size()
	y0 := H - len(lines)
	for i, l := range lines {
		y := y0 + i
		room := W
		mw := 0
		if l.mark != "" {
			mw = window.TextWidth(l.mark) + 2
			if room-mw < W/2 {
				mw = 0 // too narrow for the mark: the text goes first
			}
		}
		x := r.Text(0, y, window.Truncate(l.text, room-mw), l.class)
		fill(r, x, y, l.class)
		if mw > 0 {
			r.Text(W-mw+1, y, l.mark, l.markC)
		}
	}
}
