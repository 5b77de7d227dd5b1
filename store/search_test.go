package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

func TestFTS5Available(t *testing.T) {
	s := newTestStore(t)
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM pragma_compile_options WHERE compile_options = 'ENABLE_FTS5'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("SQLite without FTS5: %d, %v", n, err)
	}
}

func TestMatchExpr(t *testing.T) {
	tests := []struct{ query, want string }{
		{"", ""},
		{"   ", ""},
		{"hello", `"hello"*`},
		{"hello ", `"hello"`},
		{"hello world", `"hello" "world"*`},
		{`say "hi"`, `"say" """hi"""*`},
		{"a* OR b", `"a*" "OR" "b"*`},
		{"NEAR(a b)", `"NEAR(a" "b)"*`},
		{"col:x", `"col:x"*`},
		{"-- ** ()", ""},
		{"x --", `"x"`},
		{"été", `"été"*`},
		{"a\x00b\x1b[31m", `"a" "b" "[31m"*`},
		{"x y x y x", `"x" "y" "x"*`},
		{strings.Repeat("w ", 40), strings.TrimSpace(strings.Repeat(`"w" `, 1))},
	}
	for _, tt := range tests {
		if got := matchExpr(tt.query); got != tt.want {
			t.Errorf("matchExpr(%q) = %s, want %s", tt.query, got, tt.want)
		}
	}
}

func TestSearch(t *testing.T) {
	s := newTestStore(t)
	gen, _ := s.CreateChannel("Général", "")
	genConv, _ := s.ChannelConversation(gen.ID)
	alice, _ := s.AgentConversation("alice")
	first := mustSave(t, s, genConv, textEntry(chat.KindUser, "", "Deploy the café service on Friday", 1))
	second := mustSave(t, s, alice, textEntry(chat.KindAgent, "alice", "The CAFE deployment failed:\nerror (code 42) in \"main.go\"", 2))
	third := mustSave(t, s, genConv, textEntry(chat.KindAgent, "bob", "Nothing about that here", 3))
	tool := chat.Entry{Kind: chat.KindToolCall, Author: "alice", Done: true, Tool: &chat.ToolCall{Title: "Read deploy.yaml", Locations: []chat.Location{{Path: "/srv/deploy.yaml"}}}}
	toolID := mustSave(t, s, alice, tool)
	plan := chat.Entry{Kind: chat.KindPlan, Author: "alice", Done: true, Plan: []chat.PlanEntry{{Content: "rollback the café"}}}
	planID := mustSave(t, s, alice, plan)

	ids := func(hits []Hit) []int64 {
		var out []int64
		for _, h := range hits {
			out = append(out, h.EntryID)
		}
		return out
	}
	same := func(a, b []int64) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	tests := []struct {
		query string
		want  []int64
	}{
		{"cafe", []int64{planID, second, first}},       // accents and case ignored, newest first
		{"CAFÉ", []int64{planID, second, first}},       // the other way round
		{"dep", []int64{toolID, second, first}},        // the last word is a prefix
		{"dep ", nil},                                  // unless a space follows it
		{"deploy.yaml", []int64{toolID}},               // a tool call's title and files
		{"cafe deploy", []int64{second, first}},        // every word, in any order
		{"rollback", []int64{planID}},                  // a plan's steps
		{`"main.go"`, []int64{second}},                 // quotes typed by the user
		{"(code 42)", []int64{second}},                 // parentheses
		{"error AND OR NOT", nil},                      // operators are words
		{"code*", []int64{second}},                     // a star typed by the user
		{"NEAR(", nil},                                 // half a function
		{"-", nil},                                     // no word at all
		{"zebra", nil},                                 // nothing
		{"nothing here", []int64{third}},               //
		{"fa:il", nil},                                 // a colon is not a column filter
		{"failed:", []int64{second}},                   //
		{"\x00\x1b[31m", nil},                          // control characters
		{strings.Repeat("x", 10000), nil},              // a very long word
		{strings.Repeat("a b ", 500) + "cafe", nil},    // many words
		{"' OR 1=1; DROP TABLE entries; --", nil},      // SQL
		{"café\u0301", []int64{planID, second, first}}, // a combining accent
	}
	for _, tt := range tests {
		hits, err := s.Search(tt.query, 10)
		if err != nil {
			t.Errorf("Search(%.30q): %v", tt.query, err)
			continue
		}
		if !same(ids(hits), tt.want) {
			t.Errorf("Search(%.30q) = %v, want %v", tt.query, ids(hits), tt.want)
		}
	}
	if n, _ := s.Count(genConv); n != 2 {
		t.Fatalf("entries gone: %d", n)
	}

	// What a hit says.
	hits, _ := s.Search("deployment", 10)
	if len(hits) != 1 {
		t.Fatalf("%d hits", len(hits))
	}
	h := hits[0]
	if h.Conv != alice || h.Agent != "alice" || h.Channel != 0 || h.ChannelName != "" || h.Kind != chat.KindAgent ||
		h.Author != "alice" || !h.Time.Equal(testTime.Add(2*1e9)) {
		t.Errorf("hit = %+v", h)
	}
	if h.Snippet != `The CAFE deployment failed: error (code 42) in "main.go"` || len(h.Marks) != 1 ||
		h.Snippet[h.Marks[0][0]:h.Marks[0][1]] != "deployment" {
		t.Errorf("snippet %q marks %v", h.Snippet, h.Marks)
	}
	hits, _ = s.Search("friday", 10)
	if len(hits) != 1 || hits[0].Channel != gen.ID || hits[0].ChannelName != "Général" || hits[0].Agent != "" {
		t.Errorf("channel hit = %+v", hits)
	}
	// The limit keeps the newest.
	hits, _ = s.Search("cafe", 2)
	if !same(ids(hits), []int64{planID, second}) {
		t.Errorf("limit 2: %v", ids(hits))
	}

	// The index follows updates: a streaming entry found by its new words, not its old.
	e := textEntry(chat.KindAgent, "alice", "draft about otters", 5)
	e.ID = mustSave(t, s, alice, e)
	e.Text = "final text about beavers"
	mustSave(t, s, alice, e)
	if hits, _ := s.Search("otters", 10); len(hits) != 0 {
		t.Errorf("old words still found: %v", ids(hits))
	}
	if hits, _ := s.Search("beavers", 10); !same(ids(hits), []int64{e.ID}) {
		t.Errorf("new words not found: %v", ids(hits))
	}
	checkIndex(t, s)
}

func TestParseSnippet(t *testing.T) {
	tests := []struct {
		in, want string
		marks    [][2]int
	}{
		{"plain", "plain", nil},
		{"a \x02b\x03 c", "a b c", [][2]int{{2, 3}}},
		{"\x02été\x03\n\n\t\x02x\x03  ", "été x", [][2]int{{0, 5}, {6, 7}}},
		{"  lead", "lead", nil},
		{"\x03\x03stray\x02", "stray", nil},
		{"\x02\x03empty", "empty", nil},
		{"end \x02word\x03 ", "end word", [][2]int{{4, 8}}},
	}
	for _, tt := range tests {
		got, marks := parseSnippet(tt.in)
		if got != tt.want || len(marks) != len(tt.marks) {
			t.Errorf("parseSnippet(%q) = %q %v, want %q %v", tt.in, got, marks, tt.want, tt.marks)
			continue
		}
		for i := range marks {
			if marks[i] != tt.marks[i] {
				t.Errorf("parseSnippet(%q) marks %v, want %v", tt.in, marks, tt.marks)
			}
		}
	}
}

// checkIndex indexes what waits and checks that the full-text index matches the entries.
func checkIndex(t *testing.T, s *Store) {
	t.Helper()
	if err := s.indexPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`INSERT INTO entries_fts(entries_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Fatalf("the search index does not match the entries: %v", err)
	}
}

// pendingCount is how many entries wait for the index.
func pendingCount(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM entries_fts_pending`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestIndexInBatches follows entries through the index queue: written, indexed by a search,
// changed or deleted after being indexed, and indexed without a search every indexEvery
// writes.
func TestIndexInBatches(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("alice")
	indexed := mustSave(t, s, conv, textEntry(chat.KindUser, "", "indexed ocelot", 1))
	if _, err := s.Search("ocelot", 10); err != nil {
		t.Fatal(err)
	}
	if n := pendingCount(t, s); n != 0 {
		t.Fatalf("%d entries wait after a search", n)
	}
	waiting := mustSave(t, s, conv, textEntry(chat.KindUser, "", "waiting lynx", 2))
	gone := mustSave(t, s, conv, textEntry(chat.KindUser, "", "deleted before indexing", 3))
	if n := pendingCount(t, s); n != 2 {
		t.Fatalf("%d entries wait, want 2", n)
	}
	// Changing an indexed entry takes its old words out at once and queues it.
	e := textEntry(chat.KindUser, "", "renamed puma", 1)
	e.ID = indexed
	mustSave(t, s, conv, e)
	if n := pendingCount(t, s); n != 3 {
		t.Fatalf("%d entries wait after changing an indexed one, want 3", n)
	}
	// Changing a waiting entry keeps it queued once.
	e = textEntry(chat.KindUser, "", "waiting lynx, edited", 2)
	e.ID = waiting
	mustSave(t, s, conv, e)
	if _, err := s.db.Exec(`DELETE FROM entries WHERE id = ?`, gone); err != nil {
		t.Fatal(err)
	}
	if n := pendingCount(t, s); n != 2 {
		t.Fatalf("%d entries wait, want 2", n)
	}
	for q, want := range map[string]int{"ocelot": 0, "puma": 1, "lynx": 1, "edited": 1, "deleted": 0} {
		if hits, err := s.Search(q, 10); err != nil || len(hits) != want {
			t.Errorf("Search(%s) = %d hits, %v; want %d", q, len(hits), err, want)
		}
	}
	checkIndex(t, s)

	// Without any search, the writers index every indexEvery writes.
	defer func(n int64) { indexEvery = n }(indexEvery)
	indexEvery = 16
	w := NewWriter(s)
	for i := range int(indexEvery) {
		w.Save(conv, textEntry(chat.KindUser, "", fmt.Sprintf("batch %d", i), i))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for i := range int(indexEvery) - 1 {
		mustSave(t, s, conv, textEntry(chat.KindUser, "", fmt.Sprintf("direct %d", i), i))
	}
	if n := pendingCount(t, s); n >= int(indexEvery) {
		t.Errorf("%d entries wait for the index after %d writes", n, 2*indexEvery-1)
	}
	checkIndex(t, s)
}
