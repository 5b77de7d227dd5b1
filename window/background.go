package window

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"
)

// DetectBackground tells whether the terminal's background is dark, for ui.theme
// "system". Call it before the screen starts: it asks the terminal with OSC 11 on
// /dev/tty in raw mode, followed by a device-attributes query that every terminal
// answers, so a terminal that does not know OSC 11 is found out at once instead of
// waiting for the timeout. Without an answer it reads COLORFGBG ("fg;bg", where a
// background of 0–6 or 8 is dark and 7 or 15 light). ok is false when neither told.
func DetectBackground(timeout time.Duration) (dark, ok bool) {
	if dark, ok := queryTTY(timeout); ok {
		return dark, true
	}
	return colorFGBG(os.Getenv("COLORFGBG"))
}

// colorFGBG reads the COLORFGBG convention (rxvt, Konsole, some others).
func colorFGBG(v string) (dark, ok bool) {
	if v == "" {
		return false, false
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return false, false
	}
	switch {
	case bg == 7 || bg == 15:
		return false, true
	case bg >= 0 && bg <= 6 || bg == 8:
		return true, true
	}
	return false, false
}

func queryTTY(timeout time.Duration) (dark, ok bool) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return false, false
	}
	defer tty.Close()
	state, err := term.MakeRaw(int(tty.Fd()))
	if err != nil {
		return false, false
	}
	defer func() { _ = term.Restore(int(tty.Fd()), state) }()
	dark, err = queryBackground(tty, tty, timeout)
	return dark, err == nil
}

// deadlineReader is a reader whose reads can be given a deadline, as an *os.File on a
// terminal or a pipe.
type deadlineReader interface {
	io.Reader
	SetReadDeadline(time.Time) error
}

var errNoAnswer = errors.New("the terminal did not report its background")

// queryBackground sends the OSC 11 question then a DA1 question to w and reads the
// answers from r until the DA1 answer, the OSC 11 answer or the deadline.
func queryBackground(r deadlineReader, w io.Writer, timeout time.Duration) (dark bool, err error) {
	if _, err := io.WriteString(w, "\x1b]11;?\x07\x1b[c"); err != nil {
		return false, fmt.Errorf("asking the terminal for its background: %w", err)
	}
	deadline := time.Now().Add(timeout)
	if err := r.SetReadDeadline(deadline); err != nil {
		return false, fmt.Errorf("setting a deadline on the terminal: %w", err)
	}
	defer func() { _ = r.SetReadDeadline(time.Time{}) }()
	var got []byte
	buf := make([]byte, 256)
	for len(got) < 4096 {
		n, rerr := r.Read(buf)
		got = append(got, buf[:n]...)
		if d, found := parseOSC11(got); found {
			return d, nil
		}
		if da1Answered(got) {
			return false, errNoAnswer
		}
		if rerr != nil {
			return false, fmt.Errorf("reading the terminal's answer: %w", rerr)
		}
	}
	return false, errNoAnswer
}

// parseOSC11 finds "ESC ] 11 ; rgb:RRRR/GGGG/BBBB" (ended by BEL or ESC \) in b and
// reports whether that colour is dark (its relative luminance below one half).
func parseOSC11(b []byte) (dark, found bool) {
	i := bytes.Index(b, []byte("\x1b]11;"))
	if i < 0 {
		return false, false
	}
	rest := b[i+5:]
	end := bytes.IndexAny(rest, "\x07\x1b")
	if end < 0 {
		return false, false
	}
	spec, ok := strings.CutPrefix(string(rest[:end]), "rgb:")
	if !ok {
		spec, ok = strings.CutPrefix(string(rest[:end]), "rgba:")
	}
	if !ok {
		return false, false
	}
	comps := strings.Split(spec, "/")
	if len(comps) < 3 {
		return false, false
	}
	var v [3]float64
	for k := 0; k < 3; k++ {
		c := comps[k]
		if c == "" || len(c) > 4 {
			return false, false
		}
		n, err := strconv.ParseUint(c, 16, 16)
		if err != nil {
			return false, false
		}
		v[k] = float64(n) / float64(uint64(1)<<(4*len(c))-1)
	}
	lum := 0.2126*v[0] + 0.7152*v[1] + 0.0722*v[2]
	return lum < 0.5, true
}

// da1Answered reports whether b holds a primary device attributes answer, "ESC [ ? … c".
func da1Answered(b []byte) bool {
	i := bytes.Index(b, []byte("\x1b[?"))
	if i < 0 {
		return false
	}
	for _, c := range b[i+3:] {
		switch {
		case c == 'c':
			return true
		case c >= '0' && c <= '9' || c == ';':
		default:
			return false
		}
	}
	return false
}
