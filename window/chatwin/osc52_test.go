package chatwin

import (
	"bytes"
	"encoding/base64"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// pipeTty is a terminal made of pipes: tcell's real terminal screen writes to it what it
// would write to a terminal, and the test reads the bytes.
type pipeTty struct {
	in *io.PipeReader

	mu    sync.Mutex
	out   bytes.Buffer
	wrote chan struct{}
}

func (p *pipeTty) Start() error        { return nil }
func (p *pipeTty) Stop() error         { return nil }
func (p *pipeTty) Drain() error        { return p.in.Close() }
func (p *pipeTty) NotifyResize(func()) {}
func (p *pipeTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 80, Height: 24}, nil
}
func (p *pipeTty) Read(b []byte) (int, error) { return p.in.Read(b) }
func (p *pipeTty) Close() error               { return p.in.Close() }

func (p *pipeTty) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.out.Write(b)
	select {
	case p.wrote <- struct{}{}:
	default:
	}
	return len(b), nil
}

func (p *pipeTty) output() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return bytes.Clone(p.out.Bytes())
}

// TestCopyWritesOSC52 copies a code block with the App on tcell's real terminal screen and
// finds the exact bytes that reach the terminal for the system clipboard.
func TestCopyWritesOSC52(t *testing.T) {
	t.Parallel()
	ti, err := tcell.LookupTerminfo("xterm-256color")
	if err != nil {
		t.Fatalf("no terminfo for xterm-256color: %v", err)
	}
	r, w := io.Pipe()
	t.Cleanup(func() { _ = w.Close() })
	tty := &pipeTty{in: r, wrote: make(chan struct{}, 1)}
	screen, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	wd := newWorld(t, withScreen(screen, 80, 24))
	wd.send("evil") // an agent that tries to write escape sequences of its own
	wd.turnEnded()
	wd.send("hello")
	wd.turnEnded()
	// The cursor to the code block: the reply ends with the closing fence, a blank row and
	// "That is all.".
	wd.press(tcell.KeyTab)
	for range 3 {
		wd.injectKey(tcell.KeyUp, 0, tcell.ModNone)
	}
	wd.ctrl('c')

	code := "def greet(name):\n    return \"hi \" + name"
	if own := onUI(wd.harness, wd.app.Clipboard); own != code {
		t.Fatalf("copied %q, want the code block", own)
	}
	want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(code)) + "\x1b\\"
	if want != "\x1b]52;c;ZGVmIGdyZWV0KG5hbWUpOgogICAgcmV0dXJuICJoaSAiICsgbmFtZQ==\x1b\\" {
		t.Fatalf("the expected sequence is not what this test means: %q", want)
	}
	deadline := time.After(deadline)
	for !bytes.Contains(tty.output(), []byte(want)) {
		select {
		case <-tty.wrote:
		case <-deadline:
			out := tty.output()
			i := bytes.Index(out, []byte("\x1b]52"))
			t.Fatalf("the terminal did not get %q; OSC 52 found at %d in %d bytes: %q", want, i, len(out), out[max(i, 0):])
		}
	}
	// Exactly once, and nothing an agent wrote reached the terminal raw.
	out := string(tty.output())
	if n := strings.Count(out, "\x1b]52;"); n != 1 {
		t.Errorf("%d OSC 52 sequences written, want 1", n)
	}
	for _, bad := range []string{"\x1b]0;", "pwned", "\u009b", "\u202e", "ZXZpbA"} {
		if strings.Contains(out, bad) {
			t.Errorf("the agent's %q reached the terminal", bad)
		}
	}
	if !strings.Contains(out, "abcdef") {
		t.Errorf("the agent's text around the sequences is lost")
	}
}
