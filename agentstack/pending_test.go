package agentstack

import (
	"slices"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// withPending merges the entries waiting in the writer into a page read from the store.
func TestWithPending(t *testing.T) {
	e := func(id int64, text string) chat.Entry { return chat.Entry{ID: id, Text: text} }
	stored := func() []chat.Entry { return []chat.Entry{e(2, "two"), e(4, "four"), e(6, "six")} }
	for _, tc := range []struct {
		name    string
		pending []chat.Entry
		before  int64
		n       int
		want    []string
	}{
		{"nothing waits", nil, 0, 3, []string{"two", "four", "six"}},
		{"newer entries after", []chat.Entry{e(7, "seven"), e(8, "eight")}, 0, 10, []string{"two", "four", "six", "seven", "eight"}},
		{"the last n", []chat.Entry{e(7, "seven"), e(8, "eight")}, 0, 3, []string{"six", "seven", "eight"}},
		{"a waiting version replaces the stored one", []chat.Entry{e(6, "six, longer")}, 0, 3, []string{"two", "four", "six, longer"}},
		{"in id order", []chat.Entry{e(5, "five"), e(3, "three")}, 0, 5, []string{"two", "three", "four", "five", "six"}},
		{"before an id", []chat.Entry{e(3, "three"), e(7, "seven")}, 5, 2, []string{"three", "four"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			page := stored()
			if tc.before != 0 {
				page = slices.DeleteFunc(page, func(x chat.Entry) bool { return x.ID >= tc.before })
			}
			var got []string
			for _, x := range withPending(page, tc.pending, tc.before, tc.n) {
				got = append(got, x.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
