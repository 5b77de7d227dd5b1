package convo

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// fakeSource is a Source over a slice of entries, for tests that set entries directly.
type fakeSource struct {
	entries []chat.Entry
	rev     uint64
}

func (s *fakeSource) Len() int { return len(s.entries) }
func (s *fakeSource) Entry(i int) (chat.Entry, bool) {
	if i < 0 || i >= len(s.entries) {
		return chat.Entry{}, false
	}
	return s.entries[i], true
}
func (s *fakeSource) Rev() uint64 { return s.rev }

// add appends entries, numbering them and giving them new revisions.
func (s *fakeSource) add(es ...chat.Entry) {
	for _, e := range es {
		s.rev++
		e.Seq = int64(len(s.entries) + 1)
		e.Rev = s.rev
		s.entries = append(s.entries, e)
	}
}

// set replaces entry i, with a new revision.
func (s *fakeSource) set(i int, e chat.Entry) {
	s.rev++
	e.Seq = s.entries[i].Seq
	e.Rev = s.rev
	s.entries[i] = e
}

func agentEntry(text string) chat.Entry {
	return chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: text, Done: true}
}

// viewOf returns a synced view of entries at width, tall enough for all its rows.
func viewOf(t testing.TB, width int, es ...chat.Entry) (*View, *fakeSource) {
	t.Helper()
	src := &fakeSource{}
	src.add(es...)
	v := New(src, Options{})
	v.SetSize(width, 1000)
	v.Sync()
	return v, src
}

// all returns every row of the view, checking that none is wider than the width.
func all(t testing.TB, v *View) []Row {
	t.Helper()
	rows := v.RowsAt(0, math.MaxInt)
	out := make([]Row, len(rows))
	copy(out, rows)
	for i, r := range out {
		if w := r.Width(); w > v.Width() {
			t.Fatalf("row %d is %d cells wide, more than %d: %q", i, w, v.Width(), r.Text())
		}
	}
	return out
}

// dump renders rows as text, one per line: kind, indentation and text.
func dump(rows []Row) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-11s|%s%s\n", r.Kind, strings.Repeat(" ", r.Indent), r.Text())
	}
	return b.String()
}

// classesOf returns "text:class" for each span of rows, to check colours.
func classesOf(rows []Row) []string {
	var out []string
	for _, r := range rows {
		for _, s := range r.Spans {
			out = append(out, s.Text+":"+s.Class)
		}
	}
	return out
}

// hasControl reports a control character other than newline and tab.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return (unicode.IsControl(r) && r != '\n' && r != '\t')
	})
}
