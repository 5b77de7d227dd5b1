package runtime

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// assertLogFilesBounded checks that an agent's log file and its one old copy stay within
// the size limit (plus one line), and that the file holds timestamped lines. dir is the
// logs folder; agents' files are in its "agents" folder.
func assertLogFilesBounded(t *testing.T, dir, agent string, limit int64) {
	t.Helper()
	dir = filepath.Join(dir, "agents")
	for _, name := range []string{agent + ".log", agent + ".log.1"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if fi.Size() > limit+MaxLogLine+64 {
			t.Errorf("%s is %d bytes, limit %d", name, fi.Size(), limit)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("log files %q, want the file and one old copy", names)
	}
	f, err := os.Open(filepath.Join(dir, agent+".log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		stamp, _, ok := strings.Cut(sc.Text(), " ")
		if _, err := time.Parse(time.RFC3339, stamp); !ok || err != nil {
			t.Fatalf("line without an RFC 3339 time: %q", sc.Text())
		}
	}
}

func TestLogRingFileAndRotation(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	logs := NewLogs(LogsOptions{Dir: dir, Lines: 3, FileSize: 200, Now: func() time.Time { return now }})
	log := logs.Agent("alice")
	if logs.Agent("alice") != log {
		t.Fatal("a second log for the same agent")
	}
	changed, cancel := log.Subscribe()
	defer cancel()
	log.Printf("sidekicks: started %d", 1)
	select {
	case <-changed:
	default:
		t.Error("no change notification")
	}
	log.Add("one\ntwo\n")
	log.Add("three\x1b[31mred\x1b[0m\x07")
	log.Add(strings.Repeat("é", MaxLogLine))
	got := log.Lines()
	if len(got) != 3 || got[0].Text != "two" || got[1].Text != "three^[[31mred^[[0m^G" {
		t.Fatalf("ring %q", got)
	}
	if l := got[2].Text; len(l) > MaxLogLine+len("…") || !strings.HasSuffix(l, "…") {
		t.Errorf("long line kept as %d bytes", len(l))
	}
	if log.Total() != 5 {
		t.Errorf("Total %d", log.Total())
	}
	for i := 0; i < 20; i++ {
		log.Printf("event %d", i)
	}
	logs.Flush()
	b, err := os.ReadFile(filepath.Join(dir, "agents", "alice.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(b), "2026-05-06T07:08:09Z event 19\n") {
		t.Errorf("file ends with %q", b[max(0, len(b)-60):])
	}
	if len(b) > 200 {
		t.Errorf("file of %d bytes, limit 200", len(b))
	}
	old, err := os.ReadFile(filepath.Join(dir, "agents", "alice.log.1"))
	if err != nil || !strings.Contains(string(old), " event ") {
		t.Errorf("rotated file: %q, %v", old, err)
	}
	if strings.ContainsRune(string(b)+string(old), 0x1b) {
		t.Error("an escape byte reached the file")
	}
	if log.Path() != filepath.Join(dir, "agents", "alice.log") {
		t.Errorf("Path %q", log.Path())
	}
}

func TestLineWriterCutsLongLinesAndKeepsATail(t *testing.T) {
	logs := NewLogs(LogsOptions{Lines: 10})
	log := logs.Agent("a")
	w := newLineWriter(log, "sandbox: ", 2)
	w.Write([]byte("first\nsec"))
	w.Write([]byte("ond\n"))
	big := strings.Repeat("z", 3*MaxLogLine)
	w.Write([]byte(big[:MaxLogLine]))
	w.Write([]byte(big[MaxLogLine:] + "\nlast"))
	w.Close()
	var texts []string
	for _, l := range log.Lines() {
		texts = append(texts, l.Text)
	}
	if len(texts) != 4 || texts[0] != "sandbox: first" || texts[1] != "sandbox: second" || texts[3] != "sandbox: last" {
		t.Fatalf("lines %q", texts)
	}
	if !strings.HasSuffix(texts[2], "…") || len(texts[2]) > MaxLogLine+len("…") {
		t.Errorf("long line of %d bytes", len(texts[2]))
	}
	if tail := w.Tail(); len(tail) != 2 || tail[1] != "sandbox: last" {
		t.Errorf("tail %q", tail)
	}
}

func TestStateDir(t *testing.T) {
	t.Setenv("SIDEKICKS_STATE_DIR", "/tmp/sk-state")
	if d, _ := StateDir(); d != "/tmp/sk-state" {
		t.Errorf("with SIDEKICKS_STATE_DIR: %q", d)
	}
	if d, _ := LogsDir(); d != "/tmp/sk-state/logs" {
		t.Errorf("LogsDir: %q", d)
	}
	t.Setenv("SIDEKICKS_STATE_DIR", "")
	t.Setenv("XDG_STATE_HOME", "/xdg/state")
	t.Setenv("HOME", "/home/me")
	want := "/xdg/state/sidekicks"
	if goruntimeGOOS() == "darwin" {
		want = "/home/me/Library/Logs/sidekicks"
	}
	if d, _ := StateDir(); d != want {
		t.Errorf("StateDir = %q, want %q", d, want)
	}
	t.Setenv("XDG_STATE_HOME", "")
	if goruntimeGOOS() != "darwin" {
		if d, _ := StateDir(); d != "/home/me/.local/state/sidekicks" {
			t.Errorf("without XDG_STATE_HOME: %q", d)
		}
	}
}

func TestLogFileName(t *testing.T) {
	for in, want := range map[string]string{"alice": "alice.log", "a-b_c9": "a-b_c9.log", "../x": "___x.log", "": "_.log"} {
		if got := logFileName(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestAgentLogNeverSharesTheApplicationLog: an agent may be named "sidekicks", like the
// application's own log file; agent logs live in a folder of their own.
func TestAgentLogNeverSharesTheApplicationLog(t *testing.T) {
	dir := t.TempDir()
	logs := NewLogs(LogsOptions{Dir: dir})
	got := logs.Agent("sidekicks").Path()
	if got == filepath.Join(dir, "sidekicks.log") || got != filepath.Join(dir, "agents", "sidekicks.log") {
		t.Fatalf("the log of an agent named sidekicks is %s", got)
	}
}

func TestLogFilesAreTheUsersAlone(t *testing.T) {
	dir := t.TempDir()
	// bob's file was left readable by others.
	if err := os.MkdirAll(filepath.Join(dir, "agents"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agents", "bob.log"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := NewLogs(LogsOptions{Dir: filepath.Join(dir, "new")})
	logs.Agent("alice").Printf("sidekicks: started")
	old := NewLogs(LogsOptions{Dir: dir})
	old.Agent("bob").Printf("sidekicks: started")
	logs.Flush()
	old.Flush()
	for path, want := range map[string]os.FileMode{
		filepath.Join(dir, "new", "agents"):              0o700,
		filepath.Join(dir, "new", "agents", "alice.log"): 0o600,
		filepath.Join(dir, "agents", "bob.log"):          0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s has mode %04o; want %04o", path, got, want)
		}
	}
}
