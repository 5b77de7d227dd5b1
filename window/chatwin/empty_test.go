package chatwin

import (
	"strings"
	"testing"
)

// The texts of an empty agent window have both languages, with the same verbs.
func TestEmptyMessagesComplete(t *testing.T) {
	for _, p := range emptyCatalogue.Problems(emsgType) {
		t.Error(p)
	}
}

// An agent window with no entry says how to talk; @ only when it can list files; the hint
// goes with the first entry.
func TestEmptyAgentWindowHint(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withSize(90, 20), withFiles(map[string]string{"a.txt": "a"}))
	wd.sync()
	s := wd.text()
	for _, want := range []string{"Type a message; Enter sends it", "/ at the start lists the agent's commands.", "@ mentions a file of its workspace"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the empty window does not say %q:\n%s", want, s)
		}
	}
	wd.send("hello")
	wd.turnEnded()
	wd.sync()
	if s := wd.text(); strings.Contains(s, "/ at the start lists") {
		t.Errorf("the hint stays once the conversation has entries:\n%s", s)
	}

	bare := newWorld(t, withSize(90, 20), func(c *worldConfig) { c.noWorkspace = true })
	bare.sync()
	if s := bare.text(); !strings.Contains(s, "/ at the start lists") || strings.Contains(s, "@ mentions") {
		t.Errorf("without a workspace:\n%s", s)
	}
}
