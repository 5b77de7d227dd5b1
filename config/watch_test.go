package config

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A report must come within this long; a quiet period lasts quiet.
const (
	reportDeadline = 10 * time.Second
	quiet          = 400 * time.Millisecond
	testDebounce   = 50 * time.Millisecond
)

type watched struct {
	reports chan struct{}
	events  chan observed
}

type observed struct {
	name    string
	counted bool
}

// watch starts a watcher on path that reports into channels, closed at the end of the
// test.
func startWatch(t *testing.T, path string, debounce time.Duration) *watched {
	t.Helper()
	w := &watched{reports: make(chan struct{}, 100), events: make(chan observed, 1000)}
	opts := WatchOptions{Debounce: debounce, observe: func(name string, counted bool) {
		select {
		case w.events <- observed{name, counted}:
		default:
		}
	}}
	watcher, err := NewWatcher(path, opts, func() { w.reports <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := watcher.Close(); err != nil {
			t.Error(err)
		}
	})
	return w
}

func (w *watched) waitReport(t *testing.T, what string) {
	t.Helper()
	select {
	case <-w.reports:
	case <-time.After(reportDeadline):
		t.Fatalf("%s: no report within %v", what, reportDeadline)
	}
}

// wantQuiet fails when a report comes within the quiet period: the one wait these tests
// make without an event to wait on, to check that a burst gave only one report.
func (w *watched) wantQuiet(t *testing.T, what string) {
	t.Helper()
	select {
	case <-w.reports:
		t.Fatalf("%s: a second report", what)
	case <-time.After(quiet):
	}
}

func saveText(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// editorSave saves like many editors do: a temporary file, renamed over the original.
func editorSave(t *testing.T, path, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".swp")
	saveText(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func TestWatchPlainWrite(t *testing.T) {
	path := newConfigFile(t, "version: 1\n")
	w := startWatch(t, path, testDebounce)
	saveText(t, path, "version: 1\nagents: []\n")
	w.waitReport(t, "plain write")
}

func TestWatchEditorSaves(t *testing.T) {
	path := newConfigFile(t, "version: 1\n")
	w := startWatch(t, path, testDebounce)
	editorSave(t, path, "version: 1\nagents: []\n")
	w.waitReport(t, "first rename save")
	// The file is now another file (another inode): saves keep being reported.
	editorSave(t, path, "version: 1\nagents: []\nchannels: []\n")
	w.waitReport(t, "second rename save")
	saveText(t, path, "version: 1\n")
	w.waitReport(t, "write after rename saves")
}

func TestWatchRemoveAndCreate(t *testing.T) {
	path := newConfigFile(t, "version: 1\n")
	w := startWatch(t, path, testDebounce)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	saveText(t, path, "version: 1\nagents: []\n")
	w.waitReport(t, "remove then create")
	w.wantQuiet(t, "remove then create")
}

func TestWatchBurstGivesOneReport(t *testing.T) {
	path := newConfigFile(t, "version: 1\n")
	w := startWatch(t, path, 200*time.Millisecond)
	for i := range 5 {
		saveText(t, path, "version: 1\n"+string(rune('a'+i))+": 1\n")
	}
	w.waitReport(t, "burst of writes")
	w.wantQuiet(t, "burst of writes")
}

func TestWatchIgnoresOtherFiles(t *testing.T) {
	path := newConfigFile(t, "version: 1\n")
	w := startWatch(t, path, testDebounce)
	other := filepath.Join(filepath.Dir(path), "other.yaml")
	saveText(t, other, "x: 1\n")
	editorSave(t, other, "x: 2\n")
	// Events come in order: once the marker's is seen, the other file's have been too.
	marker := filepath.Join(filepath.Dir(path), "marker")
	saveText(t, marker, "")
	deadline := time.After(reportDeadline)
	for done := false; !done; {
		select {
		case ev := <-w.events:
			if ev.counted {
				t.Fatalf("event on %s counted as a save of %s", ev.name, path)
			}
			done = ev.name == marker
		case <-deadline:
			t.Fatal("the events on the other files never came")
		}
	}
	select {
	case <-w.reports:
		t.Fatal("a report for another file")
	default:
	}
}

func TestWatchFollowsALink(t *testing.T) {
	target := newConfigFile(t, "version: 1\n")
	link := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	w := startWatch(t, link, testDebounce)
	editorSave(t, target, "version: 1\nagents: []\n")
	w.waitReport(t, "save of the link's target")
}

// A configuration whose folders do not exist yet is waited for: creating them, then the
// file, is reported; a file written in a folder moved in whole is too.
func TestWatchMissingFolder(t *testing.T) {
	base := t.TempDir()
	path := filepath.Join(base, "no", "such", "config.yaml")
	w := startWatch(t, path, testDebounce)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	// The folders' creation alone is no save.
	saveText(t, filepath.Join(base, "no", "other.yaml"), "x: 1\n")
	saveText(t, path, "version: 1\nagents: []\n")
	w.waitReport(t, "file created in new folders")
	w.wantQuiet(t, "file created in new folders")
	saveText(t, path, "version: 1\n")
	w.waitReport(t, "later save")
	// The folders removed, then made again: still followed.
	if err := os.RemoveAll(filepath.Join(base, "no")); err != nil {
		t.Fatal(err)
	}
	w.wantQuiet(t, "folders removed") // a file removed is no save
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	saveText(t, path, "version: 1\nagents: []\n")
	w.waitReport(t, "file created again in folders made again")

	// A folder made elsewhere with the file in it, then moved into place.
	path = filepath.Join(base, "moved", "config.yaml")
	w = startWatch(t, path, testDebounce)
	made := filepath.Join(t.TempDir(), "made")
	if err := os.Mkdir(made, 0o755); err != nil {
		t.Fatal(err)
	}
	saveText(t, filepath.Join(made, "config.yaml"), "version: 1\n")
	if err := os.Rename(made, filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	w.waitReport(t, "folder moved in with the file")
}

func TestWatchConfigReloads(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LANG", "C")
	path := newConfigFile(t, "version: 1\nagents: []\n")
	type reload struct {
		cfg   *Config
		diags Diagnostics
	}
	reloads := make(chan reload, 10)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := WatchConfig(ctx, path, func(cfg *Config, diags Diagnostics) { reloads <- reload{cfg, diags} })
	if err != nil {
		t.Fatal(err)
	}
	next := func(what string) reload {
		t.Helper()
		select {
		case r := <-reloads:
			return r
		case <-time.After(reportDeadline):
			t.Fatalf("%s: no reload", what)
		}
		return reload{}
	}

	editorSave(t, path, "version: 1\nagents:\n  - name: bob\n    command: mm\n")
	if r := next("valid save"); r.diags.HasErrors() || r.cfg == nil || len(r.cfg.Agents) != 1 || r.cfg.Agents[0].Name != "bob" {
		t.Errorf("valid save: %+v", r)
	}
	editorSave(t, path, "version: 1\nagents:\n  - name: Bob Smith\n    command: mm\n")
	if r := next("invalid save"); !r.diags.HasErrors() || r.cfg != nil || r.diags[0].Line != 3 {
		t.Errorf("invalid save: config %v, diagnostics %q; want no config and the error on line 3", r.cfg, r.diags)
	}

	cancel()
	// Cancelling closes the watcher; closing it again is harmless.
	if err := w.Close(); err != nil {
		t.Error(err)
	}
}
