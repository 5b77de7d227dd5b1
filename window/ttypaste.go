package window

import (
	"bytes"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// The bracketed paste's markers, as the terminal sends them around a paste.
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// pasteTag is what tcell is given in place of a paste the terminal's reader took whole: the
// paste's markers around one private-use character. tcell reports the paste's start, that
// one character and its end, and the App takes the text from the reader's queue
// (ttyPastes.take). A paste of a megabyte so costs tcell three events, not a million (one
// allocated event a character, sent through two channels), and the keys typed after it
// no longer wait behind them.
const pasteTag = "\U0010FFFD"

// ttyPastes takes the bracketed pastes out of what the terminal sends, before tcell reads
// it. Only a paste whose start marker is whole within one read is taken; one whose marker a
// read cut is left to tcell, which reads it a character at a time, as before.
type ttyPastes struct {
	in    bool   // inside a paste taken
	raw   []byte // the bytes of the paste being taken
	extra int    // characters beyond MaxPaste, left out

	mu    sync.Mutex
	queue []takenPaste // pastes taken whole, oldest first, not yet handed to the App
	taken atomic.Int64 // pastes handed to the App, for tests
}

// keepPasteBuffer is the most buffer ttyPastes keeps between two pastes.
const keepPasteBuffer = 64 << 10

// takenPaste is a paste's text as the App gets it, and how many characters it left out
// past MaxPaste.
type takenPaste struct {
	text    string
	dropped int
}

// filter appends to out what tcell should read of one read from the terminal, in: the
// bytes outside pastes through rewriteRead, each paste taken whole as pasteTag.
func (p *ttyPastes) filter(out, in []byte) []byte {
	for len(in) > 0 {
		if !p.in {
			i := bytes.Index(in, []byte(pasteStart))
			if i < 0 {
				return rewriteRead(out, in)
			}
			out = rewriteRead(out, in[:i])
			in = in[i+len(pasteStart):]
			p.in, p.raw, p.extra = true, p.raw[:0], 0
			continue
		}
		from := max(len(p.raw)-len(pasteEnd)+1, 0) // a marker the last read cut
		p.raw = append(p.raw, in...)
		in = nil
		j := bytes.Index(p.raw[from:], []byte(pasteEnd))
		if j < 0 {
			p.bound()
			continue
		}
		j += from
		rest := p.raw[j+len(pasteEnd):]
		text, dropped := pasteText(p.raw[:j])
		p.mu.Lock()
		p.queue = append(p.queue, takenPaste{text: text, dropped: dropped + p.extra})
		p.mu.Unlock()
		out = append(append(append(out, pasteStart...), pasteTag...), pasteEnd...)
		p.in = false
		in = append([]byte(nil), rest...)
		p.raw = p.raw[:0]
		if cap(p.raw) > keepPasteBuffer {
			p.raw = nil // a big paste's buffer is not kept for the next one
		}
	}
	return out
}

// bound keeps the paste being taken within MaxPaste (and the end of a cut marker after it):
// the characters beyond are counted, and left out, as tcell's paste leaves them out.
func (p *ttyPastes) bound() {
	limit := MaxPaste + len(pasteEnd)
	if len(p.raw) <= limit {
		return
	}
	cut := len(p.raw) - len(pasteEnd) + 1 // keep what may begin the end marker
	if cut <= MaxPaste {
		return
	}
	for _, b := range p.raw[MaxPaste:cut] {
		if !utf8.RuneStart(b) {
			continue
		}
		p.extra++
	}
	p.raw = append(p.raw[:MaxPaste], p.raw[cut:]...)
}

// take returns the oldest paste taken and not yet handed over.
func (p *ttyPastes) take() (takenPaste, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		return takenPaste{}, false
	}
	t := p.queue[0]
	p.queue[0] = takenPaste{}
	p.queue = p.queue[1:]
	p.taken.Add(1)
	return t, true
}

// pasteText turns a paste's bytes into the text tcell's paste events would have given
// (pasteState.key): characters as they are, a CR, a LF or a CR LF pair as one newline, Tab
// as a tab; other control characters, and the escape sequences of keys (ESC [ … and ESC O x),
// carry nothing; ESC before a character is dropped (tcell reads it as Alt and the
// character). Bytes that are not UTF-8 become U+FFFD. Past MaxPaste bytes, the characters
// are counted and left out.
func pasteText(raw []byte) (string, int) {
	out := make([]byte, 0, min(len(raw), MaxPaste))
	dropped := 0
	for i := 0; i < len(raw); {
		if len(out) >= MaxPaste {
			for _, b := range raw[i:] {
				if utf8.RuneStart(b) {
					dropped++
				}
			}
			break
		}
		b := raw[i]
		switch {
		case b == '\r':
			out = append(out, '\n')
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			i++
		case b == '\n' || b == '\t':
			out = append(out, b)
			i++
		case b == 0x1b:
			i = skipEscape(raw, i)
		case b < 0x20 || b == 0x7f:
			i++
		case b < utf8.RuneSelf:
			out = append(out, b)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			out = utf8.AppendRune(out, r) // utf8.RuneError for bytes that are not UTF-8
			i += size
		}
	}
	return string(out), dropped
}

// skipEscape returns where the text resumes after the ESC at raw[i]: after a CSI sequence
// (ESC [ parameters, then a final byte), after ESC O and its key, or right after the ESC.
func skipEscape(raw []byte, i int) int {
	switch {
	case i+1 < len(raw) && raw[i+1] == '[':
		for j := i + 2; j < len(raw); j++ {
			if raw[j] >= 0x40 && raw[j] <= 0x7e {
				return j + 1
			}
		}
		return len(raw)
	case i+2 < len(raw) && raw[i+1] == 'O':
		return i + 3
	}
	return i + 1
}
