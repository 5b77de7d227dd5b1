package window

import "testing"

// A one-line input typed key by key keeps a ZWJ emoji whole: Backspace deletes it all.
func TestInputTypedClusters(t *testing.T) {
	in := NewInput()
	for _, r := range "a👩\u200d💻" {
		in.HandleEvent(Key{KeyRune, r, 0})
	}
	if got := in.Text(); got != "a👩\u200d💻" {
		t.Fatalf("typed key by key, the input holds %q", got)
	}
	in.HandleEvent(Named(KeyBackspace, 0))
	if got, cur := in.Text(), in.Cursor(); got != "a" || cur != 1 {
		t.Fatalf("Backspace left %q, cursor %d", got, cur)
	}
}

func TestPrintableJoiners(t *testing.T) {
	for _, c := range []struct {
		r    rune
		want bool
	}{
		{'a', true}, {'\u200d', true}, {'\u200c', true}, {0xE0067, true}, {0xE007F, true},
		{'\u202e', false}, {'\u200b', false}, {0xE0001, false}, {'\x1b', false},
	} {
		if got := (Key{KeyRune, c.r, 0}).Printable(); got != c.want {
			t.Errorf("Printable(%U) = %v, want %v", c.r, got, c.want)
		}
	}
	if (Key{KeyRune, '\u200d', ModAlt}).Printable() {
		t.Error("Alt with a joiner types it")
	}
}
