package window

import "testing"

func TestTruncateLeft(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"/home/me/configs", 20, "/home/me/configs"},
		{"/home/me/configs", 8, "…configs"},
		{"~/équipe/日本", 6, "…/日本"},
		{"~/日本", 3, "…本"},
		{"abc", 0, ""},
	} {
		if got := truncateLeft(c.in, c.width); got != c.want {
			t.Errorf("truncateLeft(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
