package wizard

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/window"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// deadline bounds every wait of these tests.
const deadline = 10 * time.Second

// frameScreen is a simulation screen that keeps the text of the last frame shown and
// says when a new one is: tests wait for what the screen shows, without sleeping.
type frameScreen struct {
	tcell.SimulationScreen
	w, h   int
	mu     sync.Mutex
	text   string
	frames chan struct{}
}

func (s *frameScreen) Init() error {
	if err := s.SimulationScreen.Init(); err != nil {
		return err
	}
	s.SetSize(s.w, s.h)
	return nil
}

func (s *frameScreen) Show() {
	s.SimulationScreen.Show()
	s.snapshot()
}

func (s *frameScreen) Sync() {
	s.SimulationScreen.Sync()
	s.snapshot()
}

// snapshot keeps the frame's text, each row without its trailing spaces.
func (s *frameScreen) snapshot() {
	cells, w, h := s.GetContents()
	var b strings.Builder
	for y := 0; y < h; y++ {
		var row strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				continue
			}
			row.WriteString(string(c.Runes))
			if window.TextWidth(string(c.Runes)) == 2 {
				x++ // the second cell of a wide character
			}
		}
		b.WriteString(strings.TrimRight(row.String(), " "))
		b.WriteByte('\n')
	}
	s.mu.Lock()
	s.text = b.String()
	s.mu.Unlock()
	select {
	case s.frames <- struct{}{}:
	default:
	}
}

func (s *frameScreen) current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.text
}

// harness runs a window.App on a simulation screen, with a configuration file in a new
// folder and an empty PATH (so the agents' programs are "not found": a warning).
type harness struct {
	t      *testing.T
	screen *frameScreen
	app    *window.App
	path   string
	added  chan string
	dialog *window.Dialog
	wiz    *wizard // touched on the UI goroutine only
}

func newHarness(t *testing.T, original string, lang window.Language) *harness {
	t.Helper()
	return newHarnessSized(t, original, lang, 80, 30)
}

func newHarnessSized(t *testing.T, original string, lang window.Language, width, height int) *harness {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LANG", "C")
	data, err := os.ReadFile(filepath.Join("testdata", original))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home) // the preview shows the file as ~/config.yaml
	path := filepath.Join(home, "config.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := &frameScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), w: width, h: height, frames: make(chan struct{}, 1)}
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	app, err := window.New(window.Options{Screen: s, Language: lang, Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, screen: s, app: app, path: path, added: make(chan string, 1)}
	done := make(chan error, 1)
	go func() { done <- app.Run() }()
	t.Cleanup(func() {
		app.Quit()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(deadline):
			t.Error("Run did not return after Quit")
		}
	})
	return h
}

// open opens the wizard in lang and waits for its title on screen.
func (h *harness) open(lang string) {
	h.t.Helper()
	h.onUI(func() {
		h.wiz = open(h.app, h.path, lang, func(name string) { h.added <- name })
		h.dialog = h.wiz.dialog
	})
	title := map[string]string{"en": "Add an agent", "fr": "Ajouter un agent"}[lang]
	h.waitScreen("the wizard's title", func(s string) bool { return strings.Contains(s, " "+title+" ") })
}

// onUI runs f on the UI goroutine and waits for it.
func (h *harness) onUI(f func()) {
	h.t.Helper()
	ran := make(chan struct{})
	h.app.Post(func() { f(); close(ran) })
	select {
	case <-ran:
	case <-time.After(deadline):
		h.t.Fatal("posted work did not run")
	}
}

// waitScreen waits for a frame that satisfies ok and returns its text.
func (h *harness) waitScreen(what string, ok func(string) bool) string {
	h.t.Helper()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	for {
		if s := h.screen.current(); ok(s) {
			return s
		}
		select {
		case <-h.screen.frames:
		case <-timer.C:
			h.t.Fatalf("the screen never showed %s; it shows:\n%s", what, h.screen.current())
		}
	}
}

func (h *harness) waitText(text string) string {
	h.t.Helper()
	return h.waitScreen(strings.TrimSpace(text), func(s string) bool { return strings.Contains(s, text) })
}

func (h *harness) press(k tcell.Key) { h.screen.InjectKey(k, 0, tcell.ModNone) }

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.screen.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
}

// fill types text in the focused field, then Tab.
func (h *harness) fill(text string) {
	h.typeText(text)
	h.press(tcell.KeyTab)
}

// state reads the wizard's form or preview on the UI goroutine.
func (h *harness) state() (problems []string, field fieldID, onPreview bool, open bool) {
	h.t.Helper()
	h.onUI(func() {
		open = h.dialog.Open()
		w := h.wiz
		problems, field, onPreview = w.form.problems, w.form.field, w.preview != nil
		if w.preview != nil {
			problems = w.preview.problems
		}
	})
	return
}

func (h *harness) fileText() string {
	h.t.Helper()
	data, err := os.ReadFile(h.path)
	if err != nil {
		h.t.Fatal(err)
	}
	return string(data)
}

// golden compares text with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, text string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if text != string(want) {
		t.Errorf("screen differs from %s:\n%s\nwant:\n%s", path, text, want)
	}
}

// timeout fires when a wait has lasted too long.
func timeout() <-chan time.Time { return time.After(deadline) }
