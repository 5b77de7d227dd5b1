package window

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// filterReads runs the terminal's bytes through a ttyPastes in reads cut at the given
// sizes (cycled), as tcell would read them, and returns what tcell is given.
func filterReads(p *ttyPastes, in []byte, sizes ...int) []byte {
	var out []byte
	for i := 0; len(in) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(in))
		out = p.filter(out, in[:n])
		in = in[n:]
	}
	return out
}

// TestPasteTakenWhole: a bracketed paste is taken out of what tcell reads, whatever reads
// cut it (its end marker included), and replaced by one tag; its text is what tcell's
// paste events gave (CR LF and CR as newlines, keys' escape sequences and controls left
// out); what comes before and after reaches tcell as it was. A paste whose start marker a
// read cut is left to tcell, and the window gets the same.
func TestPasteTakenWhole(t *testing.T) {
	body := "line one\r\nline two\rthree\tfour\x1b[Afive\x1bOPsix\x07éz\n"
	want := "line one\nline two\nthree\tfourfivesixéz\n"
	in := []byte("ab" + pasteStart + body + pasteEnd + "c" + pasteStart + "x" + pasteEnd)
	wantEvents := []string{"key a", "key b", "paste " + want, "key c", "paste x"}
	for _, sizes := range [][]int{{len(in)}, {3}, {7, 2}, {128}, {5, 11, 1}, {20}} {
		p := &ttyPastes{}
		got := filterReads(p, in, sizes...)
		if len(sizes) == 1 && sizes[0] == len(in) {
			if want := "ab" + pasteStart + pasteTag + pasteEnd + "c" + pasteStart + pasteTag + pasteEnd; string(got) != want {
				t.Fatalf("one read: tcell is given %q, want %q", got, want)
			}
		}
		if events := throughTcell(t, p, got); strings.Join(events, "|") != strings.Join(wantEvents, "|") {
			t.Fatalf("reads %v: the window gets %q, want %q", sizes, events, wantEvents)
		}
		if _, ok := p.take(); ok {
			t.Fatalf("reads %v: a paste taken was left over", sizes)
		}
	}
	// Reads of one byte cut every marker: nothing is taken, tcell reads it all as before.
	p := &ttyPastes{}
	if got, old := string(filterReads(p, in, 1)), string(oldReads(in, 1)); got != old {
		t.Fatalf("one-byte reads: tcell is given %q, want %q as before", got, old)
	}
	if _, ok := p.take(); ok {
		t.Fatal("a paste was taken from one-byte reads")
	}
}

// throughTcell runs what tcell is given through its input parser and the App's paste
// handling, and returns the keys and pastes a window would get.
func throughTcell(t *testing.T, p *ttyPastes, in []byte) []string {
	t.Helper()
	evch := make(chan tcell.Event, len(in)+16)
	tcell.NewInputProcessor(evch).ScanUTF8(in)
	a := &App{ttyPastes: p}
	var got []string
	for {
		select {
		case ev := <-evch:
			switch ev := ev.(type) {
			case *tcell.EventPaste:
				if ev.Start() {
					a.paste.start()
				} else if text, _, ok := a.endPaste(); ok {
					got = append(got, "paste "+text)
				}
			case *tcell.EventKey:
				if a.paste.active {
					a.paste.key(ev)
				} else {
					got = append(got, "key "+string(ev.Rune()))
				}
			}
		default:
			return got
		}
	}
}

// oldReads is what tcell was given of in, read at the given sizes, before pastes were
// taken: each read through rewriteRead.
func oldReads(in []byte, sizes ...int) []byte {
	var out []byte
	for i := 0; len(in) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(in))
		out = rewriteRead(out, in[:n])
		in = in[n:]
	}
	return out
}

// TestPasteTakenWholeNotUTF8: bytes of a paste taken whole that are not UTF-8 become U+FFFD
// (tcell read each as the Latin-1 character of its value).
func TestPasteTakenWholeNotUTF8(t *testing.T) {
	if got, _ := pasteText([]byte("a\xffb\xc3")); got != "a\uFFFDb\uFFFD" {
		t.Fatalf("got %q", got)
	}
}

// TestPasteTakenWholeCutsAtMaxPaste: a paste past MaxPaste keeps MaxPaste bytes, counts the
// characters left out, and still ends at its marker.
func TestPasteTakenWholeCutsAtMaxPaste(t *testing.T) {
	p := &ttyPastes{}
	big := bytes.Repeat([]byte("é"), MaxPaste/2+1000) // 2 bytes each
	in := append(append([]byte(pasteStart), big...), pasteEnd+"k"...)
	got := filterReads(p, in, 64<<10)
	if string(got) != pasteStart+pasteTag+pasteEnd+"k" {
		t.Fatalf("tcell is given %q", got)
	}
	tp, ok := p.take()
	if !ok || len(tp.text) != MaxPaste || tp.dropped != 1000 {
		t.Fatalf("the paste kept %d bytes and dropped %d characters, want %d and 1000", len(tp.text), tp.dropped, MaxPaste)
	}
	if cap(p.raw) > keepPasteBuffer {
		t.Errorf("the reader keeps a buffer of %d bytes after the paste", cap(p.raw))
	}
}

// TestPasteStateLetsTheTextGo: once a paste tcell read a character at a time ends, its
// buffer is the text's alone: nothing of it stays for the next paste.
func TestPasteStateLetsTheTextGo(t *testing.T) {
	var p pasteState
	p.start()
	for range 100_000 {
		p.key(tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone))
	}
	if text, _, ok := p.end(); !ok || len(text) != 100_000 {
		t.Fatalf("the paste is %d bytes", len(text))
	}
	if c := p.text.Cap(); c != 0 {
		t.Fatalf("the paste's state keeps %d bytes", c)
	}
}

// pasteRecorder records the keys and pastes its window gets, and signals each.
type pasteRecorder struct {
	got  []string
	seen chan struct{}
}

func (r *pasteRecorder) Draw(Region, bool) {}

func (r *pasteRecorder) HandleEvent(ev Event) bool {
	switch ev := ev.(type) {
	case Key:
		r.got = append(r.got, "key "+ev.String())
	case Paste:
		r.got = append(r.got, fmt.Sprintf("paste %d %q", len(ev.Text), ev.Text[:min(len(ev.Text), 20)]))
		if len(ev.Text) > 1000 && ev.Text != strings.Repeat("0123456789abcdef\n", len(ev.Text)/17) {
			r.got = append(r.got, "paste text differs")
		}
	default:
		return false
	}
	r.seen <- struct{}{}
	return true
}

// TestBigPasteThroughTheTerminal: the real terminal screen (tcell's terminfo screen on a
// pipe, through altTty) hands a 1 MiB bracketed paste, typed between two keys, to the
// focused window as one Paste, in order, and tcell reads three characters for it, not a
// million (its keys were one event a character: the keys typed after a paste waited for
// all of them).
func TestBigPasteThroughTheTerminal(t *testing.T) {
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Skipf("no terminfo for xterm-256color: %v", err)
	}
	r, w := io.Pipe()
	var out bytes.Buffer
	at := &altTty{Tty: &pipeTty{in: r, out: &out}, pastes: &ttyPastes{}}
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(at, ti)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{Screen: s})
	if err != nil {
		t.Fatal(err)
	}
	a.ttyPastes = at.pastes
	rec := &pasteRecorder{seen: make(chan struct{}, 8)}
	if _, err := a.AddWindow("P", rec); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { ended <- a.Run() }()
	defer func() {
		a.Quit()
		w.Close()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return")
		}
	}()
	text := strings.Repeat("0123456789abcdef\n", (1<<20)/17)
	rnd := rand.New(rand.NewSource(1))
	go func() {
		data := []byte("x" + pasteStart + text + pasteEnd + "y")
		for len(data) > 0 { // writes of any size, as a terminal's
			n := min(len(data), 1+rnd.Intn(9000))
			if _, err := w.Write(data[:n]); err != nil {
				return
			}
			data = data[n:]
		}
	}()
	for i := 0; i < 3; i++ {
		select {
		case <-rec.seen:
		case <-time.After(20 * time.Second):
			t.Fatalf("the window got only %v", onUIGot(a, rec))
		}
	}
	got := onUIGot(a, rec)
	want := []string{"key x", fmt.Sprintf("paste %d %q", len(text), text[:20]), "key y"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("the window got %v, want %v", got, want)
	}
	if n := at.pastes.taken.Load(); n != 1 {
		t.Fatalf("%d pastes taken whole by the terminal's reader, want 1: tcell read the paste a character at a time", n)
	}
}

// onUIGot reads what the recorder got, on the UI goroutine.
func onUIGot(a *App, rec *pasteRecorder) []string {
	c := make(chan []string, 1)
	a.Post(func() { c <- append([]string(nil), rec.got...) })
	select {
	case got := <-c:
		return got
	case <-time.After(10 * time.Second):
		return nil
	}
}
