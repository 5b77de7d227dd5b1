package window

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// parseBytes runs bytes a terminal sends through tcell's own input parser (after
// altTty's rewriting, as the real screen does) and normalises the keys.
func parseBytes(t *testing.T, in string) []Key {
	t.Helper()
	evch := make(chan tcell.Event, 64)
	ip := tcell.NewInputProcessor(evch)
	ip.ScanUTF8(rewriteAltUTF8(nil, []byte(in)))
	var keys []Key
	for {
		select {
		case ev := <-evch:
			if ke, ok := ev.(*tcell.EventKey); ok {
				if k, ok := keyFromTcell(ke); ok {
					keys = append(keys, k)
				}
			}
		default:
			return keys
		}
	}
}

func TestTerminalByteForms(t *testing.T) {
	altEnter := Named(KeyEnter, ModAlt)
	cases := []struct {
		name  string
		bytes string
		want  Key
	}{
		{"Alt-Enter as ESC CR (tmux, xterm without modifyOtherKeys)", "\x1b\r", altEnter},
		{"Alt-Enter as kitty CSI u", "\x1b[13;3u", altEnter},
		{"Alt-Enter as xterm modifyOtherKeys", "\x1b[27;3;13~", altEnter},
		{"Enter", "\r", Named(KeyEnter, 0)},
		{"Alt-1 as ESC 1", "\x1b1", Alt('1')},
		{"Alt-& as ESC &", "\x1b&", Alt('&')},
		{"Alt-é as ESC é (rewritten by altTty)", "\x1bé", Alt('é')},
		{"Alt-à as ESC à", "\x1bà", Alt('à')},
		{"Alt-é as modifyOtherKeys", "\x1b[27;3;233~", Alt('é')},
		{"Alt-é as CSI u", "\x1b[233;3u", Alt('é')},
		{"Ctrl-W", "\x17", Ctrl('w')},
		{"Ctrl-W as CSI u", "\x1b[119;5u", Ctrl('w')},
		{"Alt-X", "\x1bx", Alt('x')},
		{"F6", "\x1b[17~", Named(KeyF6, 0)},
		{"Shift-F6", "\x1b[17;2~", Named(KeyF6, ModShift)},
		{"Alt-F3", "\x1b[1;3R", Named(KeyF3, ModAlt)},
		{"F10", "\x1b[21~", Named(KeyF10, 0)},
		{"Backspace (DEL)", "\x7f", Named(KeyBackspace, 0)},
		{"Shift-Tab", "\x1b[Z", Named(KeyBacktab, 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := parseBytes(t, c.bytes)
			if len(got) != 1 || !got[0].Is(c.want) {
				t.Errorf("%q gave %v, want %v", c.bytes, got, c.want)
			}
		})
	}
}

func TestWindowDigit(t *testing.T) {
	for i, r := range []rune("&é\"'(-è_çà") {
		n, ok := Alt(r).WindowDigit()
		if want := (i + 1) % 10; !ok || n != want {
			t.Errorf("Alt-%c: %d %v, want %d", r, n, ok, want)
		}
	}
	for d := '0'; d <= '9'; d++ {
		if n, ok := Alt(d).WindowDigit(); !ok || n != int(d-'0') {
			t.Errorf("Alt-%c: %d %v", d, n, ok)
		}
	}
	for _, k := range []Key{{KeyRune, '1', 0}, {KeyRune, 'é', 0}, Ctrl('1'), Alt('a')} {
		if _, ok := k.WindowDigit(); ok {
			t.Errorf("%v is not a window key", k)
		}
	}
}

func TestKeyNormalisation(t *testing.T) {
	cases := []struct {
		key  tcell.Key
		r    rune
		mod  tcell.ModMask
		want Key
	}{
		{tcell.KeyRune, 'A', tcell.ModShift, Key{KeyRune, 'A', 0}},
		{tcell.KeyRune, 'X', tcell.ModAlt, Key{KeyRune, 'X', ModAlt}},
		{tcell.KeyCtrlA, 'a', tcell.ModCtrl, Ctrl('a')},
		{tcell.KeyCtrlSpace, 0, tcell.ModCtrl, Ctrl(' ')},
		{tcell.KeyF18, 0, 0, Named(KeyF6, ModShift)},
		{tcell.KeyF51, 0, 0, Named(KeyF3, ModAlt)},
		{tcell.KeyBackspace2, 0, 0, Named(KeyBackspace, 0)},
		{tcell.KeyTab, 0, tcell.ModShift, Named(KeyBacktab, 0)},
		{tcell.KeyPgDn, 0, 0, Named(KeyPgDn, 0)},
	}
	for _, c := range cases {
		got, ok := keyFromTcell(tcell.NewEventKey(c.key, c.r, c.mod))
		if !ok || got != c.want {
			t.Errorf("tcell %v %q %v: %v, want %v", c.key, c.r, c.mod, got, c.want)
		}
	}
	if !(Key{KeyRune, 'X', ModAlt | ModShift}).Is(Alt('x')) {
		t.Error("Alt-X with Caps Lock is not Alt-x")
	}
	if (Key{KeyRune, 'X', 0}).Is(Key{KeyRune, 'x', 0}) {
		t.Error("X and x are the same key")
	}
	for k, want := range map[Key]string{
		Alt('x'): "Alt-X", Ctrl('w'): "Ctrl-W", Named(KeyF6, ModShift): "Shift-F6",
		Named(KeyF3, ModAlt): "Alt-F3", Named(KeyEnter, ModAlt): "Alt-Enter", Alt('0'): "Alt-0",
	} {
		if k.String() != want {
			t.Errorf("%#v named %q, want %q", k, k.String(), want)
		}
	}
}

// pipeTty is a terminal made of pipes, for the real terminal screen of tcell.
type pipeTty struct {
	in  *io.PipeReader
	out io.Writer
}

func (p *pipeTty) Start() error        { return nil }
func (p *pipeTty) Stop() error         { return nil }
func (p *pipeTty) Drain() error        { return p.in.Close() }
func (p *pipeTty) NotifyResize(func()) {}
func (p *pipeTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 80, Height: 24}, nil
}
func (p *pipeTty) Read(b []byte) (int, error)  { return p.in.Read(b) }
func (p *pipeTty) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p *pipeTty) Close() error                { return p.in.Close() }

func TestAltTtyInTerminalScreen(t *testing.T) {
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Skipf("no terminfo for xterm-256color: %v", err)
	}
	r, w := io.Pipe()
	var out bytes.Buffer
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(&altTty{Tty: &pipeTty{in: r, out: &out}}, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	go func() { _, _ = w.Write([]byte("\x1bé")) }()
	deadline := time.After(5 * time.Second)
	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	defer close(quit)
	go s.ChannelEvents(events, quit)
	for {
		select {
		case ev := <-events:
			ke, ok := ev.(*tcell.EventKey)
			if !ok {
				continue
			}
			k, _ := keyFromTcell(ke)
			if n, ok := k.WindowDigit(); !ok || n != 2 {
				t.Fatalf("ESC é through the terminal screen gave %v, want Alt-é (window 2)", k)
			}
			return
		case <-deadline:
			t.Fatal("no key event from the terminal screen")
		}
	}
}

// TestLoneEscAtOnce checks that a read of ESC alone (the Esc key) reaches tcell in a form it
// reports at once, without waiting 50 ms for the rest of an escape sequence, and that an
// ESC within a read is left to tcell's parser.
func TestLoneEscAtOnce(t *testing.T) {
	evch := make(chan tcell.Event, 4)
	ip := tcell.NewInputProcessor(evch)
	ip.ScanUTF8(rewriteRead(nil, []byte("\x1b")))
	select {
	case ev := <-evch:
		ke, ok := ev.(*tcell.EventKey)
		if k, _ := keyFromTcell(ke); !ok || !k.Is(Named(KeyEsc, 0)) {
			t.Fatalf("a lone ESC gave %v, want Esc", ev)
		}
	default:
		t.Fatal("a lone ESC is not reported at once: tcell waits for more")
	}
	for in, want := range map[string]string{"\x1b[A": "\x1b[A", "\x1bx": "\x1bx", "\x1bé": "\x1b[233;3u"} {
		if got := string(rewriteRead(nil, []byte(in))); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

func TestRewriteAltUTF8(t *testing.T) {
	cases := map[string]string{
		"\x1bé":          "\x1b[233;3u",
		"a\x1bçb":        "a\x1b[231;3ub",
		"\x1b[A":         "\x1b[A",
		"é\x1b":          "é\x1b",
		"\x1b\xc3":       "\x1b\xc3", // cut character: left alone
		"\x1b\x1bé\x1bx": "\x1b\x1b[233;3u\x1bx",
	}
	for in, want := range cases {
		if got := string(rewriteAltUTF8(nil, []byte(in))); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

// TestTcellDropsAltBeforeNonASCII is the reason for altTty: without it, tcell reads
// ESC é as a plain é, and Alt-2 on an AZERTY keyboard would type a letter.
func TestTcellDropsAltBeforeNonASCII(t *testing.T) {
	evch := make(chan tcell.Event, 8)
	tcell.NewInputProcessor(evch).ScanUTF8([]byte("\x1bé"))
	ev := (<-evch).(*tcell.EventKey)
	if ev.Rune() != 'é' || ev.Modifiers()&tcell.ModAlt != 0 {
		t.Skipf("tcell now keeps Alt before a non-ASCII character (%v %v): altTty may go", ev.Rune(), ev.Modifiers())
	}
}
