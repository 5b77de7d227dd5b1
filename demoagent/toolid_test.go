package demoagent

import (
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// The tool call ids of a session stay unique when it is served by a new session of the same
// process and when a restarted process loads it.
func TestToolCallIDsUniqueAcrossSessionsAndRestarts(t *testing.T) {
	state, root := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("first file AAA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	seen := map[sdk.ToolCallId]string{}
	read := func(c *testClient, sid, where string) {
		t.Helper()
		starts, _ := toolUpdates(c.prompt(sid, sdk.TextBlock("/read a.txt")))
		if len(starts) != 1 {
			t.Fatalf("%s: %d tool calls, want 1", where, len(starts))
		}
		id := starts[0].ToolCallId
		if before, ok := seen[id]; ok {
			t.Errorf("%s: tool call id %q was already given %s", where, id, before)
		}
		seen[id] = where
	}

	first := startAgent(t, Options{StateDir: state})
	(&fsHandlers{t: t, root: root}).install(first)
	first.initialize()
	sid, _ := first.newSession(root)
	read(first, sid, "in the first session")
	other, _ := first.newSession(root)
	read(first, other, "in a second session of the process")
	if err := first.close(); err != nil {
		t.Fatalf("first agent: %v", err)
	}

	second := startAgent(t, Options{StateDir: state})
	(&fsHandlers{t: t, root: root}).install(second)
	second.initialize()
	second.loadSession(sid, root)
	read(second, sid, "in the first session, loaded by a restarted agent")
}
