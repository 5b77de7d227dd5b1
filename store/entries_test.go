package store

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// fullEntries are entries of every kind with every field set.
func fullEntries() []chat.Entry {
	old := "before"
	t0 := testTime
	return []chat.Entry{
		{Kind: chat.KindUser, Turn: 1, Created: t0, Updated: t0, Text: "hello @alice", Done: true},
		{Kind: chat.KindThought, Author: "alice", Turn: 1, Created: t0.Add(time.Second), Updated: t0.Add(2 * time.Second), Text: "thinking…"},
		{Kind: chat.KindAgent, Author: "alice", Turn: 1, Created: t0, Updated: t0.Add(time.Minute),
			Text: strings.Repeat("é", 1000), Lost: 12345, Done: true},
		{Kind: chat.KindToolCall, Author: "alice", Turn: 1, Created: t0, Updated: t0, Done: true, Tool: &chat.ToolCall{
			ID: "call-1", Title: "Edit main.go", Kind: "edit", Status: "completed",
			Content: []chat.ToolContent{
				{Type: "content", Text: "done"},
				{Type: "diff", Path: "/w/main.go", OldText: &old, NewText: "after"},
				{Type: "diff", Path: "/w/new.go", NewText: "package x"},
				{Type: "terminal", TerminalID: "t1"},
			},
			Locations: []chat.Location{{Path: "/w/main.go", Line: 3}, {Path: "/w/new.go"}},
		}},
		{Kind: chat.KindPlan, Author: "alice", Turn: 2, Created: t0, Updated: t0, Done: true, Plan: []chat.PlanEntry{
			{Content: "read", Priority: "high", Status: "completed"},
			{Content: "write", Priority: "low", Status: "pending"},
		}},
		{Kind: chat.KindPlan, Author: "alice", Plan: []chat.PlanEntry{}},
		{Kind: chat.KindNotice, Text: "alice stopped (exit status 1)", Done: true},
	}
}

// sameEntry compares entries, times by instant.
func sameEntry(a, b chat.Entry) bool {
	if !a.Created.Equal(b.Created) || !a.Updated.Equal(b.Updated) {
		return false
	}
	a.Created, a.Updated, b.Created, b.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

func TestEntriesRoundTrip(t *testing.T) {
	s := newTestStore(t)
	conv, err := s.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	want := fullEntries()
	for i := range want {
		want[i].ID = mustSave(t, s, conv, want[i])
	}
	got, err := s.LastPage(conv, 100)
	if err != nil || len(got) != len(want) {
		t.Fatalf("LastPage: %d entries, %v", len(got), err)
	}
	for i := range want {
		if !sameEntry(got[i], want[i]) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if got[0].Created.Nanosecond() != testTime.Nanosecond() {
		t.Errorf("nanoseconds lost: %v", got[0].Created)
	}
}

func TestSaveEntryUpdates(t *testing.T) {
	s := newTestStore(t)
	conv, _ := s.AgentConversation("alice")
	other, _ := s.AgentConversation("bob")
	e := chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: "Hel"}
	id := mustSave(t, s, conv, e)
	next := mustSave(t, s, conv, textEntry(chat.KindUser, "", "after", 1))
	e.ID, e.Text = id, "Hello, world"
	if got := mustSave(t, s, conv, e); got != id {
		t.Fatalf("update returned id %d, want %d", got, id)
	}
	e.Text, e.Done = "Hello, world!", true
	mustSave(t, s, conv, e)
	page, _ := s.LastPage(conv, 10)
	if len(page) != 2 || page[0].ID != id || page[0].Text != "Hello, world!" || !page[0].Done || page[1].ID != next {
		t.Errorf("after updates: %+v", page)
	}
	// An update keeps the entry's place; an unknown id or another conversation's is refused.
	e.ID = next + 100
	if _, err := s.SaveEntry(conv, e); !errors.Is(err, ErrNoEntry) {
		t.Errorf("update of an unknown id: %v", err)
	}
	e.ID = id
	if _, err := s.SaveEntry(other, e); !errors.Is(err, ErrNoEntry) {
		t.Errorf("update through another conversation: %v", err)
	}
	if _, err := s.SaveEntry(9999, chat.Entry{Kind: chat.KindUser}); !errors.Is(err, ErrNoConversation) {
		t.Errorf("insert in a missing conversation: %v", err)
	}
	if page, _ := s.LastPage(conv, 10); page[0].Text != "Hello, world!" {
		t.Errorf("entry changed by a refused update: %q", page[0].Text)
	}
}

func TestPages(t *testing.T) {
	s := newTestStore(t)
	a, _ := s.AgentConversation("alice")
	b, _ := s.AgentConversation("bob")
	var want []string
	for i := range 120 {
		text := fmt.Sprintf("a%03d", i)
		mustSave(t, s, a, textEntry(chat.KindUser, "", text, i))
		want = append(want, text)
		mustSave(t, s, b, textEntry(chat.KindUser, "", fmt.Sprintf("b%03d", i), i))
	}
	if n, err := s.Count(a); err != nil || n != 120 {
		t.Errorf("Count = %d, %v", n, err)
	}
	page, err := s.LastPage(a, 50)
	if err != nil || !equalStrings(texts(page), want[70:]) {
		t.Fatalf("LastPage = %q, %v", texts(page), err)
	}
	// Scrolling up, page by page, until the beginning.
	var all []chat.Entry
	all = append(page, all...)
	for {
		more, err := s.Before(a, all[0].ID, 50)
		if err != nil {
			t.Fatal(err)
		}
		if len(more) == 0 {
			break
		}
		all = append(more, all...)
	}
	if !equalStrings(texts(all), want) {
		t.Errorf("scrolling up gave %d entries: %q", len(all), texts(all))
	}
	if got, _ := s.LastPage(a, 0); len(got) != 0 {
		t.Errorf("LastPage(0) = %d entries", len(got))
	}
	if got, _ := s.LastPage(9999, 10); len(got) != 0 {
		t.Errorf("LastPage of a missing conversation = %d entries", len(got))
	}
	if got, _ := s.Before(a, all[3].ID, 2); !equalStrings(texts(got), want[1:3]) {
		t.Errorf("Before = %q", texts(got))
	}
}

func TestAgentConversation(t *testing.T) {
	s := newTestStore(t)
	a1, err := s.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := s.AgentConversation("alice")
	b, _ := s.AgentConversation("bob")
	if a1 != a2 || a1 == b {
		t.Errorf("alice %d then %d, bob %d", a1, a2, b)
	}
	ch, _ := s.CreateChannel("alice", "")
	c, err := s.ChannelConversation(ch.ID)
	if err != nil || c == a1 || c == b {
		t.Errorf("channel named like an agent: conversation %d, %v", c, err)
	}
	if c2, _ := s.ChannelConversation(ch.ID); c2 != c {
		t.Errorf("channel conversation %d then %d", c, c2)
	}
	if _, err := s.AgentConversation(""); !errors.Is(err, ErrBadName) {
		t.Errorf("empty agent: %v", err)
	}
}
