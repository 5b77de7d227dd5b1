package config

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// readDeadline bounds each read of these tests: a refused file is refused at once.
const readDeadline = 5 * time.Second

// within runs f and fails the test when it does not return within readDeadline (f is
// then left running: it is what is tested).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(readDeadline):
		t.Fatalf("%s did not return within %s", what, readDeadline)
	}
}

// unreadableFiles makes, in dir, what must never be read as one of Sidekicks' files: a
// named pipe nobody writes to, a link to /dev/zero (a device that never ends), a link to
// the pipe; it returns them by name.
func unreadableFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	pipe := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	toPipe := filepath.Join(dir, "to-pipe")
	if err := os.Symlink(pipe, toPipe); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"named pipe": pipe, "link to /dev/zero": zero, "link to a named pipe": toPipe}
}

func TestLoadRefusesWhatIsNotARegularFileAtOnce(t *testing.T) {
	t.Setenv("LANG", "fr_FR.UTF-8")
	for name, path := range unreadableFiles(t, t.TempDir()) {
		t.Run(name, func(t *testing.T) {
			var cfg *Config
			var diags Diagnostics
			var lang i18n.Lang
			within(t, "LoadContext", func() { cfg, diags, lang = LoadContext(context.Background(), path) })
			want := "ce n'est pas un fichier ordinaire (un tube nommé, un périphérique…) ; il n'est pas lu"
			if cfg != nil || len(diags) != 1 || !strings.Contains(diags[0].Message, want) || diags[0].File != path {
				t.Fatalf("LoadContext(%s) = %v, %+v; want one error saying %q", name, cfg, diags, want)
			}
			if lang != i18n.French {
				t.Errorf("language %v, want LANG's, French", lang)
			}
		})
	}
}

// The read of a file too large is refused without reading it, whatever its size.
func TestLoadRefusesALargeFileWithoutReadingIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 20); err != nil { // sparse: it takes no disk
		t.Fatal(err)
	}
	f.Close()
	_, diags, _ := LoadContext(context.Background(), path)
	if len(diags) != 1 || !strings.Contains(diags[0].Message, "the file is too large for a configuration (1024 KiB at most)") {
		t.Fatalf("diagnostics %+v; want the file refused as too large", diags)
	}
}

// An operation that does not answer (a network file system gone) is given up after the
// timeout, and the next ones on the same path are given up at once, without piling up,
// until it ends; a done context gives up at once.
func TestBoundedGivesUpABlockedOperation(t *testing.T) {
	old := readTimeout
	readTimeout = 100 * time.Millisecond
	t.Cleanup(func() { readTimeout = old })
	path := filepath.Join(t.TempDir(), "config.yaml")
	release := make(chan struct{})
	ended := make(chan struct{})
	calls := 0
	start := time.Now()
	err := bounded(context.Background(), path, func() error {
		calls++
		defer close(ended)
		<-release
		return nil
	})
	var timeout *TimeoutError
	if !errors.As(err, &timeout) || timeout.After != readTimeout {
		t.Fatalf("bounded = %v; want a *TimeoutError after %v", err, readTimeout)
	}
	if took := time.Since(start); took > readDeadline {
		t.Fatalf("gave up after %v", took)
	}
	if text, ok := readRefusalText(i18n.English, err); !ok || !strings.Contains(text, "the file did not answer within 0.1 s") {
		t.Errorf("the timeout is said %q", text)
	}

	second := false
	err = bounded(context.Background(), path, func() error { second = true; return nil })
	if !errors.As(err, &timeout) || second {
		t.Fatalf("a second operation while the first is stuck: %v, ran %v; want a *TimeoutError at once, not run", err, second)
	}
	// Another path is not held up.
	if err := bounded(context.Background(), path+".other", func() error { return nil }); err != nil {
		t.Fatalf("another path: %v", err)
	}

	// Once it has ended, the path is read again.
	gone := stuckOn(path)
	if gone == nil {
		t.Fatal("the path is not marked as stuck")
	}
	close(release)
	<-ended
	select {
	case <-gone:
	case <-time.After(readDeadline):
		t.Fatal("the stuck mark stayed after the operation ended")
	}
	ran := false
	if err := bounded(context.Background(), path, func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("after the blocked operation ended: %v, ran %v; want it run", err, ran)
	}
	if calls != 1 {
		t.Errorf("the blocked operation ran %d times", calls)
	}

	// A context done while the operation blocks gives up at once.
	ctx, cancel := context.WithCancel(context.Background())
	readTimeout = time.Hour
	block := make(chan struct{})
	defer close(block)
	started := make(chan struct{})
	go func() {
		<-started
		cancel()
	}()
	within(t, "bounded with a context done meanwhile", func() {
		err = bounded(ctx, path+".cancelled", func() error { close(started); <-block; return nil })
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("bounded with a done context = %v; want context.Canceled", err)
	}
	// Done before: not even started.
	ran = false
	if err := bounded(ctx, path+".done", func() error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("bounded with a context done before = %v, ran %v; want context.Canceled, not run", err, ran)
	}
}

func TestProjectFileThatIsNotRegularIsRefusedAtOnce(t *testing.T) {
	for name, target := range unreadableFiles(t, t.TempDir()) {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, ".sidekicks", "acp.toml")
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, file); err != nil {
				t.Fatal(err)
			}
			var p Project
			within(t, "ReadProject", func() { p = ReadProject(dir, i18n.English) })
			want := "reading " + file + ": this is not a regular file (a named pipe, a device…); it is not read"
			if p.Path != file || len(p.Agents) != 0 || len(p.Diags) != 1 || p.Diags[0].Message != want || p.Diags[0].Warning {
				t.Fatalf("ReadProject = %+v; want one error %q", p, want)
			}
		})
	}
}

// A preferences file that cannot be understood is never lost: the save that replaces it
// first keeps it beside, whole, and says where.
func TestDamagedPreferencesAreKeptBesideTheNewOnes(t *testing.T) {
	cases := map[string]func(t *testing.T, path string){
		"not JSON": func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("{\"lastOpened\": \x00garbage"), 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"too large": func(t *testing.T, path string) {
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(maxPreferencesSize + 1); err != nil {
				t.Fatal(err)
			}
		},
		"named pipe": func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"link to /dev/zero": func(t *testing.T, path string) {
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, damage := range cases {
		t.Run(name, func(t *testing.T) {
			folder := isolateUser(t)
			if err := os.MkdirAll(folder, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(folder, "preferences.json")
			damage(t, path)
			before, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			var content []byte
			if before.Mode().IsRegular() {
				content, _ = os.ReadFile(path)
			}
			var loadErr error
			within(t, "LoadPreferences", func() { _, loadErr = LoadPreferences() })
			if !errors.Is(loadErr, ErrCorruptPreferences) {
				t.Fatalf("LoadPreferences: %v; want ErrCorruptPreferences", loadErr)
			}

			cfg := touchConfig(t, filepath.Join(t.TempDir(), "c.yaml"))
			var kept string
			within(t, "RememberOpened", func() { kept, err = RememberOpened(cfg) })
			if err != nil {
				t.Fatalf("RememberOpened: %v", err)
			}
			if dir, base := filepath.Split(kept); dir != folder+string(filepath.Separator) || !strings.HasPrefix(base, "preferences.json.damaged-") {
				t.Fatalf("kept as %q; want beside it, preferences.json.damaged-…", kept)
			}
			after, err := os.Lstat(kept)
			if err != nil {
				t.Fatalf("the damaged file was not kept: %v", err)
			}
			if after.Mode().Type() != before.Mode().Type() || after.Size() != before.Size() || !os.SameFile(before, after) {
				t.Errorf("kept %v (%d bytes); want the very file, %v (%d bytes)", after.Mode(), after.Size(), before.Mode(), before.Size())
			}
			if content != nil {
				if got, _ := os.ReadFile(kept); !bytes.Equal(got, content) {
					t.Errorf("kept content %q, want %q", got, content)
				}
			}
			p, err := LoadPreferences()
			if err != nil || p.LastOpened != cfg {
				t.Errorf("the new preferences: %+v, %v; want %s last opened", p, err, cfg)
			}
			if text := DamagedPreferencesText(i18n.French, kept); !strings.Contains(text, "il est gardé sous le nom "+kept) {
				t.Errorf("said %q", text)
			}

			// Saved again, the new file is not damaged: nothing more is kept.
			if kept, err := RememberOpened(cfg); err != nil || kept != "" {
				t.Errorf("a second RememberOpened kept %q, %v", kept, err)
			}
			entries, _ := os.ReadDir(folder)
			if len(entries) != 2 {
				t.Errorf("the folder holds %v; want the preferences and one damaged copy", entries)
			}
		})
	}
}

func TestReadCatalogueIsComplete(t *testing.T) {
	for _, p := range readCatalogue.Problems(rNotRegular) {
		t.Error(p)
	}
}
