package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// appDeadline bounds every wait of the application tests.
const appDeadline = 15 * time.Second

// current returns the text of the last frame shown.
func (h *appHarness) current() string {
	f, _ := h.screen.Last()
	return f.Text()
}

// syncBuffer is a buffer written by the application and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// appEnv isolates the folders the application reads and writes, and returns the folder of
// the test's configuration.
func appEnv(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("SIDEKICKS_CONFIG", "")
	t.Setenv("SIDEKICKS_DATA_DIR", "")
	t.Setenv("SIDEKICKS_STATE_DIR", "")
	t.Setenv("LANG", "C")
	t.Setenv("NO_COLOR", "")
	return t.TempDir()
}

func TestMain(m *testing.M) { testagents.Main(m) }

// allowProject records the user's approval of dir's project agents file as it is now.
func allowProject(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, config.ProjectFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := config.Allow(path, data); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// demoAgentYAML is one agent of a test configuration: this test binary run again as the
// demo agent (see testagents.Main). extra is added to its entry. GORACE keeps a
// race-enabled child from pausing a second when it exits.
func demoAgentYAML(t *testing.T, name, title, icon, extra string) string {
	t.Helper()
	return demoAgentYAMLDelay(t, name, title, icon, extra, "0")
}

// demoAgentYAMLDelay is demoAgentYAML with the demo agent's pause between words.
func demoAgentYAMLDelay(t *testing.T, name, title, icon, extra, delay string) string {
	t.Helper()
	return fmt.Sprintf(`  - name: %s
    title: %q
    icon: %q
    command: %q
    env:
%s      SIDEKICKS_DEMO_STATE: %q
      GORACE: "atexit_sleep_ms=0"
%s`, name, title, icon, os.Args[0], testagents.DemoEnv(title, delay), t.TempDir(), extra)
}

// appHarness runs the application on a simulation screen.
type appHarness struct {
	t      *testing.T
	ap     *application
	screen *windowtest.Screen
	stderr *syncBuffer
	done   chan runResult
	ended  *runResult
	// clock is the application's: it stands still until a test moves it (Advance).
	clock *windowtest.Clock
}

type runResult struct {
	code int
	next string
}

// startApp opens the application on the configuration at path, started in dir, and runs
// it on a 120×40 simulation screen, with a clock that does not move. Each change, when
// given, changes the options before the application opens.
func startApp(t *testing.T, path, dir string, changes ...func(*appHarness, *appOptions)) *appHarness {
	t.Helper()
	h := &appHarness{t: t, screen: windowtest.NewScreen(windowtest.ScreenConfig{Width: 120, Height: 40}), stderr: &syncBuffer{}, done: make(chan runResult, 1), clock: windowtest.NewClock()}
	o := appOptions{
		configFlag:      path,
		dir:             dir,
		stderr:          h.stderr,
		screen:          func() (tcell.Screen, error) { return h.screen, nil },
		shutdownTimeout: appDeadline,
		// A still clock: status messages stay until the next one, however slow the test.
		now: h.clock.Now,
	}
	for _, change := range changes {
		change(h, &o)
	}
	ap, err := openApplication(o)
	if err != nil {
		t.Fatalf("the application did not start: %v", err)
	}
	h.ap = ap
	go func() {
		code, next := ap.run()
		h.done <- runResult{code, next}
	}()
	t.Cleanup(func() {
		if h.ended == nil {
			h.ap.app.Post(h.ap.quit)
			h.wait()
		}
	})
	h.waitScreen("the menu bar", func(s string) bool { return strings.Contains(s, "Sidekicks") })
	return h
}

// wait waits for run to return.
func (h *appHarness) wait() runResult {
	h.t.Helper()
	if h.ended != nil {
		return *h.ended
	}
	select {
	case r := <-h.done:
		h.ended = &r
		return r
	case <-time.After(appDeadline):
		h.t.Fatalf("the application did not stop within %s; the screen shows:\n%s", appDeadline, h.current())
		return runResult{}
	}
}

// waitScreen waits for a frame that satisfies ok, of those shown from the one shown when it
// is called, and returns its text: a frame drawn and replaced before the test looked counts
// (a status message the next one replaced at once; TestLogFolderOnFullDisk missed Sidekicks'
// "written again" under load, replaced by the agent's log's).
func (h *appHarness) waitScreen(what string, ok func(string) bool) string {
	h.t.Helper()
	timer := time.NewTimer(appDeadline)
	defer timer.Stop()
	last, _ := h.screen.Last()
	seen := max(last.N, 1) - 1 // from the frame shown now
	for {
		// Every frame since the last look: one drawn and replaced meanwhile counts too.
		frames, next := h.screen.Since(seen)
		for _, f := range frames {
			seen = f.N
			if s := f.Text(); ok(s) {
				return s
			}
		}
		select {
		case <-next:
		case <-timer.C:
			h.t.Fatalf("the screen never showed %s within %s; it shows:\n%s", what, appDeadline, h.current())
		}
	}
}

// waitText waits until the screen shows every text.
func (h *appHarness) waitText(texts ...string) string {
	h.t.Helper()
	return h.waitScreen(fmt.Sprintf("%q", texts), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// waitGone waits until the screen no longer shows text.
func (h *appHarness) waitGone(text string) string {
	h.t.Helper()
	return h.waitScreen(fmt.Sprintf("no %q", text), func(s string) bool { return !strings.Contains(s, text) })
}

// onUI runs f on the screen's goroutine and waits for it.
func (h *appHarness) onUI(f func()) {
	h.t.Helper()
	ran := make(chan struct{})
	h.ap.app.Post(func() { f(); close(ran) })
	select {
	case <-ran:
	case <-time.After(appDeadline):
		h.t.Fatal("work posted to the screen did not run")
	}
}

// titles returns the open windows' titles, in order.
func (h *appHarness) titles() []string {
	var titles []string
	h.onUI(func() {
		for _, w := range h.ap.app.Windows() {
			titles = append(titles, w.Title())
		}
	})
	return titles
}

// waitTitles waits until the open windows' titles are want, in order.
func (h *appHarness) waitTitles(want ...string) {
	h.t.Helper()
	deadline := time.Now().Add(appDeadline)
	for {
		_, next := h.screen.Last()
		got := h.titles()
		if strings.Join(got, "|") == strings.Join(want, "|") {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("windows %q, want %q", got, want)
		}
		select {
		case <-next:
		case <-time.After(time.Until(deadline)):
		}
	}
}

// key presses a key: a rune (with mods), or a named key.
func (h *appHarness) key(k tcell.Key, r rune, mod tcell.ModMask) {
	h.t.Helper()
	h.screen.PostEventWait(tcell.NewEventKey(k, r, mod))
}

func (h *appHarness) alt(r rune) { h.key(tcell.KeyRune, r, tcell.ModAlt) }

func (h *appHarness) press(k tcell.Key) { h.key(k, 0, tcell.ModNone) }

func (h *appHarness) typeText(s string) {
	for _, r := range s {
		h.key(tcell.KeyRune, r, tcell.ModNone)
	}
}

// quit presses Alt-X and waits for the application to stop.
func (h *appHarness) quit() runResult {
	h.t.Helper()
	h.alt('x')
	return h.wait()
}

// openStore opens the history of the configuration at path, once no application holds it;
// it is closed at the end of the test.
func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st := openStoreAt(t, path)
	t.Cleanup(func() { st.Close() })
	return st
}

// openStoreAt opens the history of the configuration at path; the caller closes it.
func openStoreAt(t *testing.T, path string) *store.Store {
	t.Helper()
	db, err := store.DefaultPath(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// focusedTitle returns the focused window's title.
func (h *appHarness) focusedTitle() string {
	var title string
	h.onUI(func() {
		if w := h.ap.app.Focused(); w != nil {
			title = w.Title()
		}
	})
	return title
}
