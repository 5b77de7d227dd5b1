package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// unseenChannel fills a new channel of s with n entries a member has not seen: user messages
// and replies of bob, alternately, each about 100 bytes, every tenth a tool call without text.
func unseenChannel(tb testing.TB, s *Store, name string, n int) ConvID {
	tb.Helper()
	ch, err := s.CreateChannel(name, "")
	if err != nil {
		tb.Fatal(err)
	}
	conv, err := s.ChannelConversation(ch.ID)
	if err != nil {
		tb.Fatal(err)
	}
	w := NewWriter(s)
	at := time.Now().Add(-time.Duration(n) * time.Second)
	for i := range n {
		e := chat.Entry{Kind: chat.KindAgent, Author: "bob", Turn: int64(i/2 + 1), Created: at, Updated: at, Done: true,
			Text: fmt.Sprintf("entry %06d %s", i, strings.Repeat("words ", 15))}
		switch {
		case i%10 == 9:
			e.Kind, e.Text, e.Tool = chat.KindToolCall, "", &chat.ToolCall{ID: fmt.Sprint(i), Title: "read"}
		case i%2 == 0:
			e.Kind, e.Author = chat.KindUser, ""
		}
		w.Save(conv, e)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return conv
}

// TestUnseenNewestReadsTheTail: on a real SQLite file, the catch-up's read of a long channel
// stops once it holds maxBytes of messages, returns the newest entries as Unseen would, and
// counts the messages it left unread.
func TestUnseenNewestReadsTheTail(t *testing.T) {
	s := newTestStore(t)
	conv := unseenChannel(t, s, "long", 3_000)
	all, err := s.Unseen(conv, "alice")
	if err != nil || len(all) != 3_000 {
		t.Fatalf("Unseen: %d entries, %v", len(all), err)
	}
	for _, limit := range []int{1, 1_000, 32 << 10} {
		tail, earlier, err := s.UnseenNewest(conv, "alice", limit)
		if err != nil {
			t.Fatal(err)
		}
		read := 0
		for _, e := range tail {
			if e.Kind != chat.KindToolCall {
				read++
			}
		}
		if read == 0 || read > limit/100+2 {
			t.Fatalf("limit %d: read %d messages", limit, read)
		}
		want := all[len(all)-len(tail):]
		if !equalStrings(texts(tail), texts(want)) || tail[0].ID != want[0].ID {
			t.Fatalf("limit %d: read %q, want the newest %q", limit, texts(tail), texts(want))
		}
		held := 0
		for _, e := range tail {
			if e.Kind != chat.KindToolCall {
				held += len(e.Text)
			}
		}
		if held < limit || held-len(tail[0].Text) >= limit {
			t.Errorf("limit %d: the messages read hold %d bytes, the oldest %d", limit, held, len(tail[0].Text))
		}
		messages := 0
		for _, e := range all[:len(all)-len(tail)] {
			if e.Kind != chat.KindToolCall {
				messages++
			}
		}
		if earlier != messages {
			t.Errorf("limit %d: %d earlier messages counted, want %d", limit, earlier, messages)
		}
	}
	// What the agent has seen is not read, and a short channel is read whole.
	if err := s.SetSeen(conv, "alice", all[len(all)-4].ID); err != nil {
		t.Fatal(err)
	}
	tail, earlier, err := s.UnseenNewest(conv, "alice", 32<<10)
	if err != nil || !equalStrings(texts(tail), texts(all[len(all)-3:])) || earlier != 0 {
		t.Errorf("after the seen mark: %q, %d earlier, %v", texts(tail), earlier, err)
	}
}

// BenchmarkUnseenLong is the catch-up's read of a channel with 50,000 entries the agent has
// not seen; BenchmarkUnseenShort, its baseline, of one with 50: the goal is the same cost.
func BenchmarkUnseenLong(b *testing.B)  { benchUnseen(b, 50_000, chat.DefaultCatchUpBytes) }
func BenchmarkUnseenShort(b *testing.B) { benchUnseen(b, 50, chat.DefaultCatchUpBytes) }

// BenchmarkUnseenLongWhole reads the long channel whole, as the catch-up did before it read
// only what it can hold.
func BenchmarkUnseenLongWhole(b *testing.B) { benchUnseen(b, 50_000, 0) }

func benchUnseen(b *testing.B, n, maxBytes int) {
	s, err := Open(filepath.Join(b.TempDir(), "unseen.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	conv := unseenChannel(b, s, "channel", n)
	b.ReportAllocs()
	for b.Loop() {
		tail, _, err := s.UnseenNewest(conv, "alice", maxBytes)
		if err != nil || len(tail) == 0 {
			b.Fatalf("%d entries, %v", len(tail), err)
		}
	}
}
