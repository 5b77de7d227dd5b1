package convo

import "testing"

func TestIconFor(t *testing.T) {
	tests := []struct {
		icon, title, name string
		glyph             string
		emoji             bool
	}{
		{"🦊", "Fox", "fox", "🦊", true},
		{"👨\u200d💻", "Dev", "dev", "👨\u200d💻", true},
		{"❤️", "Love", "love", "❤️", true},
		{"1️⃣", "One", "one", "1️⃣", true},
		{"🇫🇷", "France", "fr", "🇫🇷", true},
		{"", "claude code", "claude", "C", false},
		{"x", "Title", "name", "X", false},
		{"", "", "bob", "B", false},
		{"", "  ", "", "?", false},
		{"", "été", "ete", "É", false},
		{"", "猫", "cat", "猫", false},
		{"*", "Star", "star", "S", false},
		{"#", "", "hash", "H", false},
	}
	for _, tt := range tests {
		glyph, colour, emoji := IconFor(tt.icon, tt.title, tt.name)
		if glyph != tt.glyph || emoji != tt.emoji {
			t.Errorf("IconFor(%q, %q, %q) = %q, emoji %v; want %q, %v", tt.icon, tt.title, tt.name, glyph, emoji, tt.glyph, tt.emoji)
		}
		if colour < 0 || colour >= IconColours {
			t.Errorf("colour %d out of range", colour)
		}
	}
	// The colour depends on the name only, and spreads names over the palette.
	_, a, _ := IconFor("", "Alpha", "alice")
	_, b, _ := IconFor("z", "Other title", "alice")
	if a != b {
		t.Errorf("alice's colour changed with its title: %d, %d", a, b)
	}
	seen := map[int]bool{}
	for _, n := range []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "oscar"} {
		_, c, _ := IconFor("", "", n)
		seen[c] = true
	}
	if len(seen) < 4 {
		t.Errorf("12 names use %d colours only", len(seen))
	}
	if IconClass(3) != "icon.3" || IconClass(99) != "icon.0" {
		t.Errorf("IconClass")
	}
}
