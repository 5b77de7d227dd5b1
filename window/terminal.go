package window

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// newTerminalScreen returns the screen of the controlling terminal, and what takes its
// bracketed pastes whole (see ttyPastes). Its input goes through altTty, which also lets
// Alt with a non-ASCII character through (see altTty).
// The terminal's entry and the tty are kept for the termWriter, made once the screen is
// started (newTermWriter).
func newTerminalScreen() (tcell.Screen, *ttyPastes, *terminal, error) {
	tty, err := tcell.NewDevTty()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("opening the terminal: %w", err)
	}
	at := &altTty{Tty: tty, pastes: &ttyPastes{}}
	ti, err := tcell.LookupTerminfo(os.Getenv("TERM"))
	if err != nil || os.Getenv("TERM") == "" || os.Getenv("SIDEKICKS_DRAW") == "tcell" {
		// tcell finds the terminal's entry its own way (or says why it cannot), and draws
		// every frame with its Show.
		s, err := tcell.NewTerminfoScreenFromTty(at)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("opening the terminal: %w", err)
		}
		return s, at.pastes, nil, nil
	}
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(at, ti)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("opening the terminal: %w", err)
	}
	return s, at.pastes, &terminal{tty: at, ti: ti}, nil
}

// terminal is what the screen of the controlling terminal writes to, and its entry.
type terminal struct {
	tty io.Writer
	ti  *terminfo.Terminfo
}

// altTty rewrites, in what the terminal sends, ESC followed by a non-ASCII character
// (Alt-é on an AZERTY keyboard, through tmux or any terminal without a modern key
// protocol) into the equivalent CSI u sequence (ESC [ 233 ; 3 u). tcell reads the first
// as a plain é — it drops the ESC before a non-ASCII character — while it reads the second
// as é with Alt, which Alt-2 needs on AZERTY. Only a pair within one read is rewritten:
// a terminal sends a key's bytes in one write.
type altTty struct {
	tcell.Tty
	mu      sync.Mutex
	buf     []byte
	pending []byte
	// pastes, when set, takes the bracketed pastes out of what tcell reads.
	pastes *ttyPastes
}

func (t *altTty) Read(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(t.pending) == 0 { // none when a read was all a paste's: tcell waits for the rest
		if t.buf == nil {
			// Larger than tcell's reads (128 bytes): a paste comes in far fewer of them.
			t.buf = make([]byte, max(len(p), readSize))
		}
		n, err := t.Tty.Read(t.buf)
		if n == 0 {
			return 0, err
		}
		if t.pastes != nil {
			t.pending = t.pastes.filter(t.pending[:0], t.buf[:n])
		} else {
			t.pending = rewriteRead(t.pending[:0], t.buf[:n])
		}
	}
	n := copy(p, t.pending)
	t.pending = t.pending[n:]
	return n, nil
}

// readSize is how much altTty reads from the terminal at once.
const readSize = 64 << 10

// escKey is the Esc key in the CSI u form, which tcell reads at once.
const escKey = "\x1b[27u"

// rewriteRead appends what one read from the terminal returned to out, as tcell should read
// it. A read of ESC alone is the Esc key: a terminal sends a key's bytes in one write, so an
// escape sequence does not stop after its first byte. tcell cannot know that and waits 50 ms
// for more, which every press of Esc paid; given the CSI u form, it reports Esc at once.
func rewriteRead(out, in []byte) []byte {
	if len(in) == 1 && in[0] == 0x1b {
		return append(out, escKey...)
	}
	return rewriteAltUTF8(out, in)
}

// rewriteAltUTF8 appends in to out with each ESC + multi-byte character turned into
// ESC [ code ; 3 u.
func rewriteAltUTF8(out, in []byte) []byte {
	for i := 0; i < len(in); i++ {
		if in[i] == 0x1b && i+1 < len(in) && in[i+1] >= 0xc2 {
			r, size := utf8.DecodeRune(in[i+1:])
			if r != utf8.RuneError {
				out = append(out, "\x1b["...)
				out = strconv.AppendInt(out, int64(r), 10)
				out = append(out, ";3u"...)
				i += size
				continue
			}
		}
		out = append(out, in[i])
	}
	return out
}
