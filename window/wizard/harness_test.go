package wizard

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// deadline bounds every wait of these tests.
const deadline = windowtest.Deadline

// frameScreen is the simulation screen, and the text of the last frame shown.
type frameScreen struct {
	tcell.SimulationScreen
	h *windowtest.Harness
}

func (s frameScreen) current() string {
	f, _ := s.h.Screen.Last()
	return f.Text()
}

// harness runs a window.App on a simulation screen, with a configuration file in a new
// folder and an empty PATH (so the agents' programs are "not found": a warning).
type harness struct {
	*windowtest.Harness
	t      *testing.T
	screen frameScreen
	app    *window.App
	path   string
	added  chan string
	dialog *window.Dialog
	wiz    *wizard // touched on the UI goroutine only
}

func newHarness(t *testing.T, original string, lang i18n.Lang) *harness {
	t.Helper()
	return newHarnessSized(t, original, lang, 80, 30)
}

func newHarnessSized(t *testing.T, original string, lang i18n.Lang, width, height int) *harness {
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
	wh := windowtest.Start(t, windowtest.Config{Width: width, Height: height,
		Options: window.Options{Language: lang, Now: windowtest.NewClock().Now}})
	return &harness{Harness: wh, t: t, screen: frameScreen{wh.Sim, wh}, app: wh.App, path: path, added: make(chan string, 1)}
}

// open opens the wizard in lang and waits for its title on screen.
func (h *harness) open(lang string) {
	h.t.Helper()
	h.onUI(func() {
		h.wiz = open(h.app, h.path, i18n.Parse(lang), func(name string) { h.added <- name })
		h.dialog = h.wiz.dialog
	})
	title := map[string]string{"en": "Add an agent", "fr": "Ajouter un agent"}[lang]
	h.waitScreen("the wizard's title", func(s string) bool { return strings.Contains(s, " "+title+" ") })
}

// onUI runs f on the UI goroutine and waits for it.
func (h *harness) onUI(f func()) {
	h.t.Helper()
	h.Post(f)
}

// waitScreen waits for a frame that satisfies ok and returns its text.
func (h *harness) waitScreen(what string, ok func(string) bool) string {
	h.t.Helper()
	return h.WaitFrame(what, func(f windowtest.Frame) bool { return ok(f.Text()) }).Text()
}

func (h *harness) waitText(text string) string {
	h.t.Helper()
	return h.waitScreen(strings.TrimSpace(text), func(s string) bool { return strings.Contains(s, text) })
}

func (h *harness) press(k tcell.Key) { h.Key(k, 0, tcell.ModNone) }

func (h *harness) typeText(s string) { h.Type(s) }

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
	windowtest.Golden(t, filepath.Join("testdata", name), text, *update)
}

// timeout fires when a wait has lasted too long.
func timeout() <-chan time.Time { return time.After(deadline) }
