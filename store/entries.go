package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// entryRow is an entry as it is stored. Its JSON is made when it is built, so that the
// caller may go on changing the entry's tool call or plan once it is handed over.
type entryRow struct {
	id      int64
	conv    ConvID
	kind    string
	author  string
	turn    int64
	created int64
	updated int64
	text    string
	lost    int64
	tool    sql.NullString
	plan    sql.NullString
	extra   string
	done    bool
}

// encodeEntry turns e into the row stored for it in conv.
func encodeEntry(conv ConvID, e chat.Entry) entryRow {
	r := entryRow{
		id: e.ID, conv: conv, kind: string(e.Kind), author: e.Author, turn: e.Turn,
		created: unixNano(e.Created), updated: unixNano(e.Updated),
		text: e.Text, lost: e.Lost, done: e.Done,
	}
	// These types hold only strings, numbers, slices and pointers: they always encode.
	if e.Tool != nil {
		b, _ := json.Marshal(e.Tool)
		r.tool = sql.NullString{String: string(b), Valid: true}
	}
	if e.Plan != nil {
		b, _ := json.Marshal(e.Plan)
		r.plan = sql.NullString{String: string(b), Valid: true}
	}
	r.extra = searchExtra(e)
	return r
}

// searchExtra is what search finds in an entry beside its text: a tool call's title and the
// files it touches, a plan's steps. A tool's output is left out: it can be large and is
// mostly read once.
func searchExtra(e chat.Entry) string {
	var parts []string
	if t := e.Tool; t != nil {
		parts = append(parts, t.Title)
		for _, l := range t.Locations {
			parts = append(parts, l.Path)
		}
		for _, c := range t.Content {
			if c.Path != "" {
				parts = append(parts, c.Path)
			}
		}
	}
	for _, p := range e.Plan {
		parts = append(parts, p.Content)
	}
	return strings.Join(parts, "\n")
}

// entryColumns are the columns scanEntry reads, in its order.
const entryColumns = `id, kind, author, turn, created, updated, text, lost, tool, plan, done`

// upsertEntrySQL writes an entry whose id the store handed out: inserted the first time,
// updated after; nothing is written when the conversation is gone (its channel was deleted
// while the entry streamed), or when the id belongs to another conversation.
const upsertEntrySQL = `INSERT INTO entries(id, conv_id, kind, author, turn, created, updated, text, lost, tool, plan, extra, done)
	SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?)
	ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, author = excluded.author, turn = excluded.turn,
		created = excluded.created, updated = excluded.updated, text = excluded.text, lost = excluded.lost,
		tool = excluded.tool, plan = excluded.plan, extra = excluded.extra, done = excluded.done
	WHERE entries.conv_id = excluded.conv_id`

// upsertArgs are upsertEntrySQL's arguments for r.
func (r *entryRow) upsertArgs() []any {
	return []any{r.id, r.conv, r.kind, r.author, r.turn, r.created, r.updated, r.text, r.lost, r.tool, r.plan, r.extra, r.done, r.conv}
}

// lastPageSQL reads the last entries of a conversation, newest first.
const lastPageSQL = `SELECT ` + entryColumns + ` FROM entries WHERE conv_id = ? ORDER BY id DESC LIMIT ?`

// beforeSQL reads the entries of a conversation before an id, newest first.
const beforeSQL = `SELECT ` + entryColumns + ` FROM entries WHERE conv_id = ? AND id < ? ORDER BY id DESC LIMIT ?`

// updateEntrySQL changes an existing entry of a conversation.
const updateEntrySQL = `UPDATE entries SET kind = ?, author = ?, turn = ?, created = ?, updated = ?, text = ?,
	lost = ?, tool = ?, plan = ?, extra = ?, done = ? WHERE id = ? AND conv_id = ?`

// SaveEntry writes an entry of a conversation at once, in its own transaction, and returns
// its id: a new one when e.ID is 0 (the entry is added after every entry given an id before
// it), else e.ID, whose entry is updated (a streaming entry saved again as it grows). The
// screen's goroutine uses a Writer instead.
func (s *Store) SaveEntry(conv ConvID, e chat.Entry) (int64, error) {
	ctx := context.Background()
	if e.ID == 0 {
		e.ID = s.newEntryID()
		r := encodeEntry(conv, e)
		res, err := s.upsertEntry.ExecContext(ctx, r.upsertArgs()...)
		if err == nil {
			err = oneRow(res, ErrNoConversation)
		}
		if err != nil {
			return 0, fmt.Errorf("adding an entry to conversation %d: %w", conv, err)
		}
		// The entry is saved; an indexing error leaves the queue for the next attempt, and
		// Search reports it.
		s.noteWrites(1)
		afterLong(r.size())
		return e.ID, nil
	}
	r := encodeEntry(conv, e)
	res, err := s.updateEntry.ExecContext(ctx, r.kind, r.author, r.turn, r.created, r.updated,
		r.text, r.lost, r.tool, r.plan, r.extra, r.done, r.id, r.conv)
	if err == nil {
		err = oneRow(res, ErrNoEntry)
	}
	if err != nil {
		return 0, fmt.Errorf("updating entry %d of conversation %d: %w", e.ID, conv, err)
	}
	s.noteWrites(1)
	afterLong(r.size())
	return e.ID, nil
}

// LastPage returns the last n entries of a conversation, oldest first: what a window shows
// when it opens.
func (s *Store) LastPage(conv ConvID, n int) ([]chat.Entry, error) {
	if n <= 0 {
		return nil, nil
	}
	entries, err := queryEntries(s.lastPage.Query(conv, n))
	if err != nil {
		return nil, fmt.Errorf("reading the last entries of conversation %d: %w", conv, err)
	}
	slices.Reverse(entries)
	return entries, nil
}

// Before returns the n entries of a conversation just before the entry beforeID, oldest
// first: more history when the user scrolls up.
func (s *Store) Before(conv ConvID, beforeID int64, n int) ([]chat.Entry, error) {
	if n <= 0 {
		return nil, nil
	}
	entries, err := queryEntries(s.before.Query(conv, beforeID, n))
	if err != nil {
		return nil, fmt.Errorf("reading the entries of conversation %d before %d: %w", conv, beforeID, err)
	}
	slices.Reverse(entries)
	return entries, nil
}

// Count returns how many entries a conversation has.
func (s *Store) Count(conv ConvID) (int, error) {
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM entries WHERE conv_id = ?`, conv).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting the entries of conversation %d: %w", conv, err)
	}
	return n, nil
}

// queryEntries reads the rows of a query whose columns are entryColumns.
func queryEntries(rows *sql.Rows, err error) ([]chat.Entry, error) {
	if err != nil {
		return nil, err
	}
	var entries []chat.Entry
	var longest int64
	for rows.Next() {
		e, size, err := scanEntry(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		entries = append(entries, e)
		longest = max(longest, size)
	}
	err = closeRows(rows)
	afterLong(longest)
	if err != nil {
		return nil, err
	}
	return entries, nil
}

// scanEntry reads one row of entryColumns, and says how many bytes its text, tool call and
// plan took: SQLite read each whole, a long one in a buffer of its own (afterLong). A tool
// call or plan whose JSON does not decode (a database edited by hand) is left out rather
// than failing the whole page.
func scanEntry(rows *sql.Rows) (chat.Entry, int64, error) {
	var e chat.Entry
	var kind string
	var created, updated int64
	var tool, plan sql.NullString
	if err := rows.Scan(&e.ID, &kind, &e.Author, &e.Turn, &created, &updated, &e.Text, &e.Lost, &tool, &plan, &e.Done); err != nil {
		return chat.Entry{}, 0, err
	}
	e.Kind = chat.EntryKind(kind)
	e.Created, e.Updated = unixTime(created), unixTime(updated)
	decodeParts(&e, tool, plan)
	return e, int64(len(e.Text) + len(tool.String) + len(plan.String)), nil
}

// decodeParts sets e's tool call and plan from their JSON, leaving out what does not decode.
func decodeParts(e *chat.Entry, tool, plan sql.NullString) {
	if tool.Valid {
		var t chat.ToolCall
		if json.Unmarshal([]byte(tool.String), &t) == nil {
			e.Tool = &t
		}
	}
	if plan.Valid {
		var p []chat.PlanEntry
		if json.Unmarshal([]byte(plan.String), &p) == nil {
			e.Plan = p
		}
	}
}

// entry is the entry r was made from, as reading it back from the database gives it.
func (r *entryRow) entry() chat.Entry {
	e := chat.Entry{
		ID: r.id, Kind: chat.EntryKind(r.kind), Author: r.author, Turn: r.turn,
		Created: unixTime(r.created), Updated: unixTime(r.updated), Text: r.text, Lost: r.lost, Done: r.done,
	}
	decodeParts(&e, r.tool, r.plan)
	return e
}
