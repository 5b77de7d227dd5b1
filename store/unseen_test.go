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

// BenchmarkUnseenHeld is the catch-up of a channel of 500 missed entries: a little more than
// the catch-up holds, so it reads what BenchmarkUnseenLong reads (about 355 entries, 32 KiB)
// and counts the rest. Long against Held is the cost of the history's length alone; Short
// reads seven times fewer entries.
func BenchmarkUnseenHeld(b *testing.B) { benchUnseen(b, 500, chat.DefaultCatchUpBytes) }

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

// storedMessages counts, in Go from the entries themselves, what countMessages counts: the
// messages with text of conv, from ids lo to hi, not written by agent.
func storedMessages(t *testing.T, s *Store, conv ConvID, agent string, lo, hi int64) int {
	t.Helper()
	rows, err := s.db.Query(`SELECT kind, author, text FROM entries WHERE conv_id = ? AND id BETWEEN ? AND ?`, conv, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var kind, author, text string
		if err := rows.Scan(&kind, &author, &text); err != nil {
			t.Fatal(err)
		}
		if (kind == "user" || kind == "agent") && author != agent && strings.Trim(text, " \t\n\r") != "" {
			n++
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMessageCountsFollowEveryWrite: whatever writes the entries (new ones, a reply growing
// from nothing, a text cleared, a kind or author changed, an entry deleted, a channel
// deleted), the count of missed messages is the one the entries give, for ranges that
// start and end anywhere in the blocks the counts are kept by.
func TestMessageCountsFollowEveryWrite(t *testing.T) {
	s := newTestStore(t)
	convs := []ConvID{unseenChannel(t, s, "one", 0), unseenChannel(t, s, "two", 0)}
	kinds := []chat.EntryKind{chat.KindUser, chat.KindAgent, chat.KindAgent, chat.KindThought, chat.KindToolCall}
	authors := []string{"", "alice", "bob"}
	bodies := []string{"hello", "", " \t\r\n ", "x"}
	type saved struct {
		conv ConvID
		e    chat.Entry
	}
	var all []saved
	for i := range 3_000 { // about three blocks of ids
		e := textEntry(kinds[i%len(kinds)], authors[i%7%len(authors)], bodies[i%11%len(bodies)], i)
		conv := convs[i%3/2]
		e.ID = mustSave(t, s, conv, e)
		all = append(all, saved{conv, e})
	}
	for i := 0; i < len(all); i += 5 { // a reply streams in, a text is cleared, an author or kind changes
		e := &all[i].e
		switch i % 4 {
		case 0:
			e.Text = e.Text + " more"
		case 1:
			e.Text = "  "
		case 2:
			e.Author = authors[(i/4)%len(authors)]
		case 3:
			e.Kind = kinds[(i/3)%len(kinds)]
		}
		mustSave(t, s, all[i].conv, *e)
	}
	for i := 1; i < len(all); i += 13 {
		if _, err := s.db.Exec(`DELETE FROM entries WHERE id = ?`, all[i].e.ID); err != nil {
			t.Fatal(err)
		}
	}
	first, last := all[0].e.ID, all[len(all)-1].e.ID
	ranges := [][2]int64{{1, last}, {first, first}, {1023, 1025}, {1024, 2047}, {1023, 2048}, {1025, 2047}, {last + 1, last + 10}}
	for lo := first; lo <= last; lo += 97 {
		ranges = append(ranges, [2]int64{lo, lo + (lo*31)%2500})
	}
	check := func() {
		t.Helper()
		for _, conv := range convs {
			for _, agent := range authors {
				for _, r := range ranges {
					got, err := s.countMessages(conv, agent, r[0], r[1])
					if want := storedMessages(t, s, conv, agent, r[0], r[1]); err != nil || got != want {
						t.Fatalf("conversation %d, not %q, ids %d to %d: counted %d, want %d (%v)", conv, agent, r[0], r[1], got, want, err)
					}
				}
			}
		}
	}
	check()
	// A deleted channel leaves no count behind, and the other's stay right.
	chans, err := s.Channels()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteChannel(chans[1].ID); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := s.db.QueryRow(`SELECT count(*) FROM message_counts WHERE conv_id = ?`, convs[1]).Scan(&left); err != nil || left != 0 {
		t.Errorf("counts of the deleted channel: %d rows, %v", left, err)
	}
	check()
}

// TestMessageCountReadsNoEntries: the count is served by the counts and the index of messages,
// never by a scan of the entries.
func TestMessageCountReadsNoEntries(t *testing.T) {
	s := newTestStore(t)
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN `+countMessagesSQL, 1, "alice", 1, 2, 1, 1023, 2048, 2050)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := closeRows(rows); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "\n")
	if strings.Contains(text, "SCAN entries") || strings.Count(text, "USING INDEX entries_messages (conv_id=? AND id>? AND id<?)") != 2 ||
		!strings.Contains(text, "SEARCH message_counts USING PRIMARY KEY (conv_id=? AND bucket>? AND bucket<?)") {
		t.Errorf("query plan:\n%s", text)
	}
}

// oldChannel is what an older Sidekicks of schema version left: a channel "old" (conversation
// 1) of alice and bob, alice having seen up to entry 700; its entries are the caller's.
func oldChannel(version int) []string {
	return []string{
		fmt.Sprintf(`PRAGMA user_version = %d`, version),
		`INSERT INTO channels(id, name, name_key, created) VALUES (1, 'old', 'old', 5)`,
		`INSERT INTO members(channel_id, agent, position) VALUES (1, 'alice', 1), (1, 'bob', 2)`,
		`INSERT INTO conversations(id, channel_id) VALUES (1, 1)`,
		`INSERT INTO sessions(conv_id, agent, seen) VALUES (1, 'alice', 700)`,
	}
}

// openMigrated opens a database that an older Sidekicks of schema version left at path (with
// stmts run in it), closed at the end of the test, checking it was brought up to date.
func openMigrated(t *testing.T, path string, version int, stmts ...string) *Store {
	t.Helper()
	oldDatabase(t, path, version, stmts...)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	checkPragma(t, s, "user_version", fmt.Sprint(SchemaVersion()))
	return s
}

// TestMigrateFromVersion4CountsMessages: a database written with schema 4, before the
// counts, is upgraded on opening with its entries kept, counted, and the catch-up's numbers
// those the entries give.
func TestMigrateFromVersion4CountsMessages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v4.db")
	stmts := oldChannel(4)
	for i := 1; i <= 3_000; i++ {
		kind, author, text := "user", "", fmt.Sprintf("entry %06d %s", i, strings.Repeat("words ", 15))
		switch {
		case i%10 == 9:
			kind, text = "tool_call", ""
		case i%10 == 7:
			kind, author, text = "agent", "bob", " \n"
		case i%2 == 1:
			kind, author = "agent", "bob"
		case i%6 == 0:
			kind, author = "agent", "alice"
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO entries(id, conv_id, kind, author, text, done) VALUES (%d, 1, '%s', '%s', '%s', 1)`, i, kind, author, text))
	}
	s := openMigrated(t, path, 4, stmts...)
	var counted int
	if err := s.db.QueryRow(`SELECT sum(n) FROM message_counts WHERE conv_id = 1`).Scan(&counted); err != nil ||
		counted != storedMessages(t, s, 1, "nobody", 1, 3_000) {
		t.Fatalf("messages counted by the migration: %d, want %d (%v)", counted, storedMessages(t, s, 1, "nobody", 1, 3_000), err)
	}
	all, err := s.Unseen(1, "alice")
	// Alice has seen up to 700; 3,000 is her own.
	if err != nil || len(all) == 0 || all[0].ID != 701 || all[len(all)-1].ID != 2_999 {
		t.Fatalf("entries after the migration: %d, %v", len(all), err)
	}
	tail, earlier, err := s.UnseenNewest(1, "alice", 32<<10)
	if err != nil || len(tail) == 0 || len(tail) == len(all) {
		t.Fatalf("catch-up after the migration: %d entries, %v", len(tail), err)
	}
	if want := storedMessages(t, s, 1, "alice", 701, tail[0].ID-1); earlier != want {
		t.Errorf("catch-up after the migration: %d earlier messages, want %d", earlier, want)
	}
	// What is written after the migration is counted too.
	mustSave(t, s, 1, textEntry(chat.KindUser, "", "new", 3_001))
	if n, err := s.countMessages(1, "alice", 1, 5_000); err != nil || n != storedMessages(t, s, 1, "alice", 1, 5_000) {
		t.Errorf("count after a new message: %d, %v", n, err)
	}
}

// TestMigrateFromVersion5KeepsCounts: a database written with schema 5 gets the index and
// triggers of the counts anew (migrate6): the counts it had stay right, the catch-up's too,
// writes after it are counted, and saving a long reply no longer copies its text for them.
func TestMigrateFromVersion5KeepsCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v5.db")
	bodies := []string{"hello", "", " \t\r\n ", "x", "  word  ", "\n"}
	stmts := oldChannel(5)
	for i := 1; i <= 3_000; i++ {
		kind, author := "user", ""
		if i%3 == 1 {
			kind, author = "agent", "bob"
		}
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO entries(id, conv_id, kind, author, text, done) VALUES (%d, 1, '%s', '%s', '%s', 1)`,
			i, kind, author, bodies[i%len(bodies)]))
	}
	s := openMigrated(t, path, 5, stmts...)
	check := func(what string) {
		t.Helper()
		for _, agent := range []string{"alice", "bob", "nobody"} {
			for _, r := range [][2]int64{{1, 5_000}, {701, 2_999}, {1_000, 1_030}, {1_024, 2_047}} {
				if n, err := s.countMessages(1, agent, r[0], r[1]); err != nil || n != storedMessages(t, s, 1, agent, r[0], r[1]) {
					t.Fatalf("%s: not %s, ids %d to %d: counted %d, want %d (%v)", what, agent, r[0], r[1], n, storedMessages(t, s, 1, agent, r[0], r[1]), err)
				}
			}
		}
	}
	check("after the migration")
	// Writes after it: a message, a blank one made a message, a message made blank.
	e := textEntry(chat.KindAgent, "bob", " ", 3_001)
	e.ID = mustSave(t, s, 1, e)
	e.Text = "now it says something"
	mustSave(t, s, 1, e)
	if _, err := s.db.Exec(`UPDATE entries SET text = '  ' WHERE id = 6`); err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, 1, textEntry(chat.KindUser, "", "new", 3_002))
	check("after writes")
	checkLongSaveCopies(t, s, 1)
}
