package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// floodText is about a megabyte of the same few words, as /floodlines writes: the text that
// made FTS5's snippet() run for minutes.
func floodText() string {
	return strings.Repeat("flood line of the demo agent\n", (1<<20)/29)
}

// An entry of a megabyte of repeated words is found, with a snippet around its first match
// of bounded size, and the search ends (it took minutes with FTS5's snippet).
func TestSearchLargeEntry(t *testing.T) {
	s := newTestStore(t)
	bob, _ := s.AgentConversation("bob")
	id := mustSave(t, s, bob, textEntry(chat.KindAgent, "bob", floodText(), 1))
	late := mustSave(t, s, bob, textEntry(chat.KindAgent, "bob", strings.Repeat("filler words here\n", 10000)+"the needle is at the end\n", 2))

	type answer struct {
		hits []Hit
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		hits, err := s.Search("flood", 10)
		done <- answer{hits, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Search on a megabyte entry did not end in 30 s")
	}
	if a.err != nil || len(a.hits) != 1 || a.hits[0].EntryID != id {
		t.Fatalf("Search = %+v, %v", a.hits, a.err)
	}
	h := a.hits[0]
	if len(h.Snippet) > 200 || len(h.Marks) == 0 || h.Snippet[h.Marks[0][0]:h.Marks[0][1]] != "flood" {
		t.Errorf("snippet %q (%d bytes), marks %v", h.Snippet, len(h.Snippet), h.Marks)
	}
	// A match far in an entry is shown with the words around it.
	hits, err := s.Search("needle", 10)
	if err != nil || len(hits) != 1 || hits[0].EntryID != late {
		t.Fatalf("Search(needle) = %+v, %v", hits, err)
	}
	if h := hits[0]; !strings.HasPrefix(h.Snippet, "…") || len(h.Marks) != 1 || h.Snippet[h.Marks[0][0]:h.Marks[0][1]] != "needle" {
		t.Errorf("needle snippet %q marks %v", h.Snippet, h.Marks)
	}
}

// A search whose context is done gives up with the context's error.
func TestSearchCancelled(t *testing.T) {
	s := newTestStore(t)
	bob, _ := s.AgentConversation("bob")
	mustSave(t, s, bob, textEntry(chat.KindAgent, "bob", floodText(), 1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	hits, err := s.SearchContext(ctx, "flood", 10)
	if !errors.Is(err, context.Canceled) || hits != nil {
		t.Fatalf("SearchContext(cancelled) = %v, %v", hits, err)
	}
}

// makeSnippet reads no more than snippetScan bytes: a match beyond gives the entry's start,
// unmarked.
func TestMakeSnippetBounded(t *testing.T) {
	text := strings.Repeat("word ", snippetScan/5+10) + "needle"
	snip, found := makeSnippet(text, termsOf("needle"))
	if found || !strings.HasPrefix(snip, "word word") || strings.Contains(snip, markOpen) || !strings.HasSuffix(snip, "…") {
		t.Errorf("makeSnippet beyond the scan = %q, %v", snip, found)
	}
	snip, found = makeSnippet("Le Café est ouvert", termsOf("cafe"))
	if !found || snip != "Le "+markOpen+"Café"+markClose+" est ouvert" {
		t.Errorf("makeSnippet(accents) = %q, %v", snip, found)
	}
	snip, found = makeSnippet("one two deploy-ment three", termsOf("deploy-me"))
	if !found || !strings.Contains(snip, markOpen+"deploy"+markClose+"-"+markOpen+"ment"+markClose) {
		t.Errorf("makeSnippet(split word) = %q, %v", snip, found)
	}
}
