package window

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// pasteState collects a bracketed paste: tcell reports its start, one key event per
// character, then its end; the focused widget gets it as one Paste event.
type pasteState struct {
	active bool
	text   strings.Builder
	lastCR bool
}

func (p *pasteState) start() {
	p.active = true
	p.text.Reset()
	p.lastCR = false
}

// end returns the pasted text; ok is false for an end without a start.
func (p *pasteState) end() (string, bool) {
	if !p.active {
		return "", false
	}
	p.active = false
	return p.text.String(), true
}

// key adds one key of the paste: characters as they are, Enter (a CR) and Ctrl-J (a LF)
// as one newline, a CR LF pair as one newline, Tab as a tab. Other keys carry nothing.
func (p *pasteState) key(ev *tcell.EventKey) {
	cr := false
	switch k := ev.Key(); {
	case k == tcell.KeyRune:
		p.text.WriteRune(ev.Rune())
	case k == tcell.KeyEnter:
		p.text.WriteByte('\n')
		cr = true
	case k == tcell.KeyLF || k == tcell.KeyCtrlJ:
		if !p.lastCR {
			p.text.WriteByte('\n')
		}
	case k == tcell.KeyTab:
		p.text.WriteByte('\t')
	}
	p.lastCR = cr
}
