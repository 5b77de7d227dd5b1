package demoagent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// loadSession loads id and returns the updates replayed before the answer.
func (c *testClient) loadSession(id, cwd string) turnLog {
	c.t.Helper()
	return c.until(c.request(sdk.AgentMethodSessionLoad, sdk.LoadSessionRequest{SessionId: sdk.SessionId(id), Cwd: cwd, McpServers: []sdk.McpServer{}}))
}

// checkReplay asserts that a load replayed the two turns of fillSession, then the commands.
func checkReplay(t *testing.T, log turnLog) {
	t.Helper()
	if log.resp.Error != nil {
		t.Fatalf("load failed: %s", log.resp.raw)
	}
	type msg struct{ role, text string }
	var got []msg
	commands := false
	for _, u := range log.updates {
		switch {
		case u.UserMessageChunk != nil:
			got = append(got, msg{"user", u.UserMessageChunk.Content.Text.Text})
		case u.AgentMessageChunk != nil:
			got = append(got, msg{"agent", u.AgentMessageChunk.Content.Text.Text})
		case u.AvailableCommandsUpdate != nil:
			commands = true
		}
	}
	want := []msg{{"user", "/echo first turn"}, {"agent", "first turn"}, {"user", "/echo second"}, {"agent", "second"}}
	if len(got) != len(want) {
		t.Fatalf("replayed %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("replayed message %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if !commands {
		t.Errorf("no commands announced after the load")
	}
}

func fillSession(t *testing.T, c *testClient, cwd string) string {
	t.Helper()
	sid, _ := c.newSession(cwd)
	c.prompt(sid, sdk.TextBlock("/echo first turn"))
	c.prompt(sid, sdk.TextBlock("/echo second"))
	return sid
}

func TestLoadSession(t *testing.T) {
	c := startAgent(t, Options{})
	c.initialize()
	sid := fillSession(t, c, t.TempDir())
	checkReplay(t, c.loadSession(sid, t.TempDir()))

	// The loaded session goes on.
	if got := c.prompt(sid, sdk.TextBlock("/echo third")).replyText(); got != "third" {
		t.Errorf("prompt after load replied %q", got)
	}

	for _, bad := range []string{"demo-unknown", "../../etc/passwd", ""} {
		log := c.loadSession(bad, t.TempDir())
		if log.resp.Error == nil || len(log.updates) != 0 {
			t.Errorf("load of %q answered %s after %d updates, want an error", bad, log.resp.raw, len(log.updates))
		}
	}
}

func TestLoadSessionAcrossRestarts(t *testing.T) {
	state := t.TempDir()
	first := startAgent(t, Options{StateDir: state})
	first.initialize()
	cwd := t.TempDir()
	sid := fillSession(t, first, cwd)
	if err := first.close(); err != nil {
		t.Fatalf("first agent: %v", err)
	}
	if _, err := os.Stat(filepath.Join(state, sid+".json")); err != nil {
		t.Fatalf("no state file: %v", err)
	}

	second := startAgent(t, Options{StateDir: state})
	second.initialize()
	newCwd := t.TempDir()
	checkReplay(t, second.loadSession(sid, newCwd))

	// The session works in the folder given to the load.
	h := &fsHandlers{t: t, root: newCwd}
	h.install(second)
	if err := os.WriteFile(filepath.Join(newCwd, "f.txt"), []byte("here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if reply := second.prompt(sid, sdk.TextBlock("/read f.txt")).replyText(); !strings.Contains(reply, "here") {
		t.Errorf("read after the load replied %q", reply)
	}
}

func TestDamagedStateFile(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "demo-broken.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logBuf syncBuffer
	c := startAgent(t, Options{StateDir: state, Log: &logBuf})
	c.initialize()
	if log := c.loadSession("demo-broken", t.TempDir()); log.resp.Error == nil {
		t.Errorf("load of a damaged session answered %s", log.resp.raw)
	}
	if !strings.Contains(logBuf.String(), "damaged") {
		t.Errorf("the damaged file was not reported: %q", logBuf.String())
	}
}

func TestStateDir(t *testing.T) {
	t.Setenv("SIDEKICKS_DEMO_STATE", "/tmp/x-demo")
	if got := StateDir(); got != "/tmp/x-demo" {
		t.Errorf("StateDir with SIDEKICKS_DEMO_STATE = %q", got)
	}
	t.Setenv("SIDEKICKS_DEMO_STATE", "")
	t.Setenv("XDG_STATE_HOME", "/state")
	if got := StateDir(); got != filepath.Join("/state", "sidekicks-demo") {
		t.Errorf("StateDir with XDG_STATE_HOME = %q", got)
	}
}

func TestClip(t *testing.T) {
	if got := clip("short", 10); got != "short" {
		t.Errorf("clip = %q", got)
	}
	got := clip("ééééé", 3) // 10 bytes; 3 falls inside the second é
	if !strings.HasPrefix(got, "é\n") || !strings.Contains(got, "8 bytes not kept") {
		t.Errorf("clip = %q", got)
	}
}

func TestPruneOldStateFiles(t *testing.T) {
	state := t.TempDir()
	write := func(name string, age time.Duration) string {
		path := filepath.Join(state, name)
		if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(path, when, when); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := write("demo-old.json", 40*24*time.Hour)
	recent := write("demo-recent.json", time.Hour)
	other := write("notes.txt", 400*24*time.Hour)
	newSessions(state, t.Logf).prune(time.Now(), stateMaxAge)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("an old session was kept (%v)", err)
	}
	for _, kept := range []string{recent, other} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s removed: %v", kept, err)
		}
	}
}
