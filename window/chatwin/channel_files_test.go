package chatwin

import (
	"context"
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// In a channel, @ in a command line lists the files of the agent the command is for:
// nothing in a command line is a mention of an agent, and its files are attached.
func TestChannelCommandLineCompletesFiles(t *testing.T) {
	t.Parallel()
	cw := newChanWorld(t)
	cw.mu.Lock()
	cw.files = map[string]Walker{"alice": func(context.Context, func(string) bool, int) ([]string, bool, error) {
		return []string{"docs/guide.md", "notes.txt"}, false, nil
	}}
	cw.mu.Unlock()
	cw.waitText("Both agents, and carol on call")

	cw.typeText("/Alice:review @no")
	cw.waitFor("the walk of alice's files", func() bool { return cw.w.list.kind == listFiles && !cw.w.list.walking })
	if got := cw.listRows(); !slices.Equal(got, []string{"notes.txt"}) {
		t.Fatalf("@no in alice's command line lists %q", got)
	}
	cw.press(tcell.KeyTab)
	if got := cw.inputText(); got != "/Alice:review @notes.txt " {
		t.Fatalf("input after Tab %q", got)
	}

	// An agent without files, and a message, list agents as before.
	cw.ctrl('u')
	cw.typeText("/bob:web @c")
	if got := cw.listRows(); !slices.Equal(got, []string{"@carol C Carol stopped"}) {
		t.Errorf("@ in bob's command line lists %q", got)
	}
	cw.ctrl('u')
	cw.typeText("hello @c")
	if got := cw.listRows(); !slices.Equal(got, []string{"@carol C Carol stopped"}) {
		t.Errorf("@ in a message lists %q", got)
	}
}
