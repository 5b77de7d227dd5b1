package convo

import (
	"encoding/base64"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// What reaches a clipboard goes through safetext.Text: the chat model already sanitized
// every entry; this is the last guard.

// CopyRegion returns the text of the region that holds row, and its number of lines: a
// code block (its code, flush left, its own indentation kept, without the fences), a prose
// passage, a tool call's output, a plan, a notice. A label or a tool call's header is a
// region of its own and gives its own text; a blank row gives nothing. Display indentation
// is never copied, and a wrapped line comes back whole.
func (v *View) CopyRegion(row int) (text string, lines int) {
	if row < 0 || row >= v.fw.total {
		return "", 0
	}
	i, r := v.locate(row)
	ev := v.ents[i]
	li := int(ev.rows[r].line)
	l := &ev.lines[li]
	switch kind := l.kind; {
	case ev.rows[r].fold: // the marker of a folded entry: the region it is in, whole
	case kind == RowBlank:
		return "", 0
	case kind == RowLabel, kind == RowToolHeader:
		return safetext.Text(l.raw()), 1
	}
	a, b := li, li+1
	if ev.rows[r].fold {
		// What the fold hides and what it shows above it: the body of the entry, whole,
		// whatever blocks (regions) it holds.
		a, b = ev.foldBody()
	}
	for a > 0 && ev.lines[a-1].region == ev.lines[a].region {
		a--
	}
	for b < len(ev.lines) && ev.lines[b].region == ev.lines[b-1].region {
		b++
	}
	var parts []string
	for _, x := range ev.lines[a:b] {
		if x.kind != RowFence && !x.nocopy {
			parts = append(parts, x.raw())
		}
	}
	return copyText(parts)
}

// CopySelection returns the lines of rows from to to (both included, in either order) and
// their number: whole lines, a wrapped line whole as soon as one of its rows is selected,
// without display indentation, and without the labels and tool call headers it spans.
func (v *View) CopySelection(from, to int) (text string, lines int) {
	if from > to {
		from, to = to, from
	}
	from, to = max(from, 0), min(to, v.fw.total-1)
	if from > to {
		return "", 0
	}
	var parts []string
	i, r := v.locate(from)
	lastLine := int32(-1)
	for row := from; row <= to && i < len(v.ents); i, r, lastLine = i+1, 0, -1 {
		ev := v.ensure(i)
		for ; r < len(ev.rows) && row <= to; r, row = r+1, row+1 {
			li := ev.rows[r].line
			if ev.rows[r].fold {
				if lastLine != ev.foldTo-1 {
					parts, lastLine = ev.foldRaw(parts, ev.rows[r]), ev.foldTo-1
				}
				continue
			}
			if li == lastLine {
				continue
			}
			lastLine = li
			if l := &ev.lines[li]; l.kind != RowLabel && l.kind != RowToolHeader && !l.nocopy {
				parts = append(parts, l.raw())
			}
		}
	}
	return copyText(parts)
}

// copyText returns parts joined by newlines, made safe, and the number of lines: a part
// may hold several (a Markdown line stands for the source lines around it that show
// nothing, such as a table's delimiter row).
func copyText(parts []string) (string, int) {
	if len(parts) == 0 {
		return "", 0
	}
	text := strings.Join(parts, "\n")
	return safetext.Text(text), strings.Count(text, "\n") + 1
}

// OSC52 returns the escape sequence that puts text on the system clipboard through the
// terminal: exactly ESC ] 5 2 ; c ; <text in standard base64> BEL. BEL ends it rather than
// ST (ESC \): xterm, kitty, WezTerm, foot, Alacritty, iTerm2 and tmux accept both, and BEL
// is one byte that no terminal mistakes for the start of another sequence. Inside tmux the
// sequence reaches the outer terminal only with `set -g set-clipboard on` (tmux then sets
// its own buffer and passes it on); Sidekicks does not wrap it in a passthrough. Some
// terminals cap its size (xterm's default is about 100 KB of base64) or ask the user before
// accepting it: nothing comes back to tell, so the caller keeps its own copy as well.
func OSC52(text string) []byte {
	const head, tail = "\x1b]52;c;", "\a"
	out := make([]byte, len(head), len(head)+base64.StdEncoding.EncodedLen(len(text))+len(tail))
	copy(out, head)
	out = base64.StdEncoding.AppendEncode(out, []byte(text))
	return append(out, tail...)
}
