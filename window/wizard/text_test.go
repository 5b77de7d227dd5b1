package wizard

import (
	"reflect"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window"
)

func TestWrapText(t *testing.T) {
	for _, tt := range []struct {
		s     string
		width int
		want  []string
	}{
		{"", 10, []string{""}},
		{"one two three", 7, []string{"one two", "three"}},
		{"one two three", 3, []string{"one", "two", "thr", "ee"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"🤖🤖🤖 x", 4, []string{"🤖🤖", "🤖 x"}},
		{"a  b", 10, []string{"a  b"}},
	} {
		got := wrapText(tt.s, tt.width)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("wrapText(%q, %d) = %q; want %q", tt.s, tt.width, got, tt.want)
		}
		for _, r := range got {
			if window.TextWidth(r) > tt.width {
				t.Errorf("row %q is wider than %d", r, tt.width)
			}
		}
	}
}

func TestFit(t *testing.T) {
	for _, tt := range []struct {
		s     string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"too long", 5, "too …"},
		{"🤖🤖🤖", 4, "🤖…"},
		{"x", 0, ""},
	} {
		if got := fit(tt.s, tt.width); got != tt.want {
			t.Errorf("fit(%q, %d) = %q; want %q", tt.s, tt.width, got, tt.want)
		}
	}
}
