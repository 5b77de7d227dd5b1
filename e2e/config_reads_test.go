package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// maxConfigReadMiB is the most memory `sidekicks check` may take on a configuration it
// must not read whole: the configuration is bounded to 1 MiB.
const maxConfigReadMiB = 100

// checkDeadline bounds a `sidekicks check` on such a file: it is refused at once.
const checkDeadline = 10 * time.Second

// notRegular is what is said of a file that is not a regular file.
const notRegular = "this is not a regular file (a named pipe, a device…); it is not read"

// mkfifo makes a named pipe nobody writes to.
func mkfifo(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// symlink makes path a link to target.
func symlink(t *testing.T, target, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkBounded runs `sidekicks check` with args and fails the test when it takes more
// than maxConfigReadMiB of memory (it has its deadline, checkDeadline).
func checkBounded(t *testing.T, env []string, dir string, args ...string) result {
	t.Helper()
	start := time.Now()
	r := runBinary(t, env, dir, checkDeadline, append([]string{"check"}, args...)...)
	t.Logf("answered in %v; peak memory %d KiB", time.Since(start).Round(time.Millisecond), r.peakKiB)
	if r.peakKiB <= 0 {
		t.Errorf("no peak memory measured (%d KiB)", r.peakKiB)
	}
	if r.peakKiB > maxConfigReadMiB<<10 {
		t.Errorf("peak memory %d MiB, over %d MiB", r.peakKiB>>10, maxConfigReadMiB)
	}
	return r
}

// `sidekicks check --config X`, X a named pipe, a link to /dev/zero or a 200 MB file,
// answers at once in little memory, saying why the file is refused.
func TestCheckRefusesAConfigurationItMustNotRead(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.yaml")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// A configuration with an error, then 200 MB: its language was once looked for by
	// reading it whole.
	if _, err := f.WriteString("version: 1\nui:\n  language: fr\nzz: 1\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(200 << 20); err != nil { // sparse: it takes no disk
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct{ name, path, want string }{
		{"named pipe", mkfifo(t, filepath.Join(dir, "pipe.yaml")), notRegular},
		{"link to /dev/zero", symlink(t, "/dev/zero", filepath.Join(dir, "zero.yaml")), notRegular},
		{"200 MB", huge, "the file is too large for a configuration (1024 KiB at most)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := checkBounded(t, env, dir, "--config", c.path)
			want := filepath.Base(c.path) + ": " + c.want + "\n1 error\n"
			if r.code != 1 || r.stdout != want {
				t.Errorf("exit %d, stdout:\n%s\nwant exit 1, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
			}
		})
	}
}

// The project agents file and the preferences are read as the configuration is: a named
// pipe or a link to /dev/zero in their place is refused at once, in little memory.
func TestCheckRefusesAProjectFileAndPreferencesItMustNotRead(t *testing.T) {
	for name, place := range map[string]func(t *testing.T, path string) string{
		"named pipe":        mkfifo,
		"link to /dev/zero": func(t *testing.T, path string) string { return symlink(t, "/dev/zero", path) },
	} {
		t.Run(name, func(t *testing.T) {
			env := isolate(t)
			dir := t.TempDir()
			home := envValue(env, "XDG_CONFIG_HOME")
			// Without --config, the preferences are read to find the configuration.
			place(t, filepath.Join(home, "sidekicks", "preferences.json"))
			project := place(t, filepath.Join(dir, ".sidekicks", "acp.toml"))
			r := checkBounded(t, env, dir)
			want := "reading " + project + ": " + notRegular + "\n1 error\n"
			// The preferences name no configuration that can be read: the default one
			// is made.
			if r.code != 1 || r.stdout != want || !strings.Contains(r.stderr, "created the default configuration") {
				t.Errorf("exit %d, stdout:\n%s\nwant exit 1, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
			}
		})
	}
}

// The application, its configuration replaced by a named pipe while it runs, says so at
// once and keeps running; the next save applies, and Alt-X exits.
func TestAppReloadsPastAConfigurationThatBecameAPipe(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	ws := t.TempDir()
	alice := testagents.DemoEntry(t, "alice", ws, t.TempDir(), "")
	path := testagents.WriteConfig(t, dir, 1, alice)
	term := startTerminal(t, env, dir, 120, 40, binary, "--config", path)
	term.waitFor("Sidekicks", appWait)

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	mkfifo(t, path)
	term.waitFor("Configuration errors", appWait)
	term.waitFor("regular file (a named pipe, a device…); it is not read", appWait)

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	testagents.WriteConfig(t, dir, 1, alice, testagents.DemoEntry(t, "carol", ws, t.TempDir(), ""))
	term.waitFor("New agents: carol", appWait)

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Errorf("exit status %d after Alt-X", code)
	}
}

// peakKiB returns the peak resident memory so far (VmHWM) of the program the terminal's
// shell runs.
func (term *terminal) peakKiB() int64 {
	term.t.Helper()
	shell := strings.TrimSpace(term.tmux("list-panes", "-t", "0", "-F", "#{pane_pid}"))
	children, err := os.ReadFile(filepath.Join("/proc", shell, "task", shell, "children"))
	if err != nil {
		term.t.Fatalf("finding the program of the pane: %v", err)
	}
	fields := strings.Fields(string(children))
	if len(fields) != 1 {
		term.t.Fatalf("the pane's shell runs %q; want one program", fields)
	}
	status, err := os.ReadFile(filepath.Join("/proc", fields[0], "status"))
	if err != nil {
		term.t.Fatalf("reading the program's status: %v", err)
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				term.t.Fatalf("reading VmHWM %q: %v", v, err)
			}
			return kib
		}
	}
	term.t.Fatalf("no VmHWM in the program's status:\n%s", status)
	return 0
}

// The application started on a configuration that is a link to /dev/zero, in a folder
// whose project agents file is a named pipe, with preferences that are a named pipe,
// opens at once in little memory, says what it refused, keeps the damaged preferences
// aside, and Alt-X exits.
func TestAppStartsOnFilesItMustNotRead(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	home := envValue(env, "XDG_CONFIG_HOME")
	prefs := mkfifo(t, filepath.Join(home, "sidekicks", "preferences.json"))
	mkfifo(t, filepath.Join(dir, ".sidekicks", "acp.toml"))
	path := symlink(t, "/dev/zero", filepath.Join(dir, "sidekicks.yaml"))
	term := startTerminal(t, env, dir, 220, 40, binary, "--config", path)
	term.waitFor("Configuration errors", appWait)
	term.waitFor("regular file (a named pipe, a device…); it is not read", appWait)
	term.waitFor("acp.toml: this is not a regular file", appWait)
	if peak := term.peakKiB(); peak > maxConfigReadMiB<<10 {
		t.Errorf("peak memory %d MiB, over %d MiB", peak>>10, maxConfigReadMiB)
	} else {
		t.Logf("peak memory %d KiB", peak)
	}
	kept, err := filepath.Glob(prefs + ".damaged-*")
	if err != nil || len(kept) != 1 {
		t.Errorf("damaged preferences kept as %v, %v; want one file", kept, err)
	} else if fi, err := os.Lstat(kept[0]); err != nil || fi.Mode().Type() != os.ModeNamedPipe {
		t.Errorf("%s: %v, %v; want the named pipe", kept[0], fi, err)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Errorf("exit status %d after Alt-X", code)
	}
}
