package window

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// TestPasteIsCapped: a paste that never ends, or a huge one, keeps at most MaxPaste bytes
// and counts what it left out.
func TestPasteIsCapped(t *testing.T) {
	var p pasteState
	p.start()
	p.text.WriteString(strings.Repeat("a", MaxPaste-1))
	for _, r := range "bcdef" {
		p.key(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
	}
	text, dropped, ok := p.end()
	if !ok || len(text) != MaxPaste || !strings.HasSuffix(text, "ab") || dropped != 4 {
		t.Fatalf("kept %d bytes ending %q, dropped %d, ok %v; want %d bytes ending \"ab\", 4 dropped",
			len(text), text[len(text)-2:], dropped, ok, MaxPaste)
	}
	// A new paste starts from nothing.
	p.start()
	p.key(tcell.NewEventKey(tcell.KeyRune, 'x', tcell.ModNone))
	if text, dropped, _ := p.end(); text != "x" || dropped != 0 {
		t.Fatalf("next paste %q, dropped %d", text, dropped)
	}
}
