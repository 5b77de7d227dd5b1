package chatwin

import (
	"strings"
	"testing"
)

// TestMentionWordBounded: a mention is found as long as a path may be, and a key typed after
// a megabyte pasted with no space finds none without looking back through all of it: a
// word longer than maxMention before the cursor is no mention, whatever it starts with.
func TestMentionWordBounded(t *testing.T) {
	path := "@" + strings.Repeat("d/", (maxMention-2)/2) + "f"
	text := "see " + path + " please"
	cursor := len("see ") + len(path)
	if from, to, ok := mentionWord(text, cursor); !ok || text[from:to] != path {
		t.Errorf("a mention of %d bytes: %v %q", len(path), ok, text[from:to])
	}
	long := "see @" + strings.Repeat("x", 1<<20)
	if _, _, ok := mentionWord(long, len(long)); ok {
		t.Error("a word of a megabyte after @ was taken for a mention")
	}
	word := strings.Repeat("QUJD", 1<<18)
	if _, _, ok := mentionWord(word, len(word)); ok {
		t.Error("a megabyte with no space and no @ was taken for a mention")
	}
	if from, to, ok := mentionWord("@ab", 3); !ok || from != 0 || to != 3 {
		t.Errorf("a mention at the start of the text: %v %d %d", ok, from, to)
	}
}
