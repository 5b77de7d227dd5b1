package window

import (
	"strings"

	"github.com/gdamore/tcell/v2"
)

// pasteState collects a bracketed paste: tcell reports its start, one key event per
// character, then its end; the focused widget gets it as one Paste event.
type pasteState struct {
	active  bool
	text    strings.Builder
	lastCR  bool
	dropped int // characters left out beyond MaxPaste
}

// MaxPaste bounds what one paste holds (16 MiB): a terminal that sends a paste's start and
// never its end, or a paste of a whole disk, cannot grow Sidekicks' memory without bound.
const MaxPaste = 16 << 20

func (p *pasteState) start() {
	p.active = true
	p.text.Reset()
	p.lastCR = false
	p.dropped = 0
}

// end returns the pasted text and how many characters were left out beyond MaxPaste; ok
// is false for an end without a start.
func (p *pasteState) end() (text string, dropped int, ok bool) {
	if !p.active {
		return "", 0, false
	}
	p.active = false
	text = p.text.String()
	p.text.Reset() // the text is the caller's: a big paste's buffer is not kept for the next one
	return text, p.dropped, true
}

// key adds one key of the paste: characters as they are, Enter (a CR) and Ctrl-J (a LF)
// as one newline, a CR LF pair as one newline, Tab as a tab. Other keys carry nothing.
func (p *pasteState) key(ev *tcell.EventKey) {
	if p.text.Len() >= MaxPaste {
		p.dropped++
		return
	}
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

// endPaste ends the paste tcell reported, and returns its text: the one the terminal's
// reader took whole (ttyPastes) when tcell's paste is that paste's tag, tcell's own
// characters otherwise (a paste whose start marker a read cut, another screen).
func (a *App) endPaste() (text string, dropped int, ok bool) {
	text, dropped, ok = a.paste.end()
	if ok && text == pasteTag && a.ttyPastes != nil {
		if p, taken := a.ttyPastes.take(); taken {
			return p.text, p.dropped, true
		}
	}
	return text, dropped, ok
}
