package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// upsertSessionSQL creates the (conversation, agent) row if needed; nothing is written when
// the conversation is gone.
const upsertSessionSQL = `INSERT INTO sessions(conv_id, agent, session_id, seen)
	SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?)
	ON CONFLICT (conv_id, agent) DO UPDATE SET `

// SetSession records the ACP session id an agent has in a conversation, for session/load
// after a restart.
func (s *Store) SetSession(conv ConvID, agent, sessionID string) error {
	if err := checkAgentName(agent); err != nil {
		return fmt.Errorf("recording a session in conversation %d: %w", conv, err)
	}
	res, err := s.db.Exec(upsertSessionSQL+`session_id = excluded.session_id`, conv, agent, sessionID, 0, conv)
	if err == nil {
		err = oneRow(res, ErrNoConversation)
	}
	if err != nil {
		return fmt.Errorf("recording the session of %q in conversation %d: %w", agent, conv, err)
	}
	return nil
}

// Session returns the ACP session id an agent has in a conversation, "" when it has none.
func (s *Store) Session(conv ConvID, agent string) (string, error) {
	var id string
	err := s.db.QueryRow(`SELECT session_id FROM sessions WHERE conv_id = ? AND agent = ?`, conv, agent).Scan(&id)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("reading the session of %q in conversation %d: %w", agent, conv, err)
	}
	return id, nil
}

// SetSeen records that an agent has seen a conversation up to the entry entryID included.
func (s *Store) SetSeen(conv ConvID, agent string, entryID int64) error {
	if err := checkAgentName(agent); err != nil {
		return fmt.Errorf("recording what was seen in conversation %d: %w", conv, err)
	}
	res, err := s.db.Exec(upsertSessionSQL+`seen = excluded.seen`, conv, agent, "", entryID, conv)
	if err == nil {
		err = oneRow(res, ErrNoConversation)
	}
	if err != nil {
		return fmt.Errorf("recording what %q has seen of conversation %d: %w", agent, conv, err)
	}
	return nil
}

// Seen returns the last entry of a conversation an agent has seen, 0 when none.
func (s *Store) Seen(conv ConvID, agent string) (int64, error) {
	var seen int64
	err := s.db.QueryRow(`SELECT seen FROM sessions WHERE conv_id = ? AND agent = ?`, conv, agent).Scan(&seen)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("reading what %q has seen of conversation %d: %w", agent, conv, err)
	}
	return seen, nil
}

// unseenSQL reads, newest first, the entries of a conversation after the last one an agent
// has seen, except its own.
const unseenSQL = `SELECT ` + entryColumns + ` FROM entries
	WHERE conv_id = ?1 AND author <> ?2
	AND id > coalesce((SELECT seen FROM sessions WHERE conv_id = ?1 AND agent = ?2), 0)`

// Unseen returns, oldest first, the entries of a conversation after the last one an agent
// has seen, except its own: what a channel sends it with its next message.
func (s *Store) Unseen(conv ConvID, agent string) ([]chat.Entry, error) {
	entries, _, err := s.UnseenNewest(conv, agent, 0)
	return entries, err
}

// UnseenNewest is Unseen that reads only the newest entries: from the newest back, until
// the messages read (the user's and the agents' replies, the only entries a catch-up
// repeats) hold maxBytes of text, the one that crosses it included. It returns them oldest
// first, with the number of messages with text it did not read (earlier, older than all it
// returns), which it counts without reading them. maxBytes ≤ 0 reads everything. So the
// catch-up of a channel that missed a million entries reads what it can send, not the
// million.
func (s *Store) UnseenNewest(conv ConvID, agent string, maxBytes int) (entries []chat.Entry, earlier int, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("reading what %q has not seen of conversation %d: %w", agent, conv, err)
		}
	}()
	rows, err := s.db.Query(unseenSQL+` ORDER BY id DESC`, conv, agent)
	if err != nil {
		return nil, 0, err
	}
	held := 0
	var longest int64
	for (maxBytes <= 0 || held < maxBytes) && rows.Next() {
		e, size, err := scanEntry(rows)
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		if e.Kind == chat.KindUser || e.Kind == chat.KindAgent {
			held += len(e.Text)
		}
		entries = append(entries, e)
		longest = max(longest, size)
	}
	err = closeRows(rows)
	afterLong(longest)
	if err != nil {
		return nil, 0, err
	}
	slices.Reverse(entries)
	if maxBytes <= 0 || held < maxBytes || len(entries) == 0 {
		return entries, 0, nil
	}
	var seen int64
	if seen, err = s.Seen(conv, agent); err != nil {
		return nil, 0, err
	}
	if earlier, err = s.countMessages(conv, agent, seen+1, entries[0].ID-1); err != nil {
		return nil, 0, err
	}
	return entries, earlier, nil
}

// isMessageSQL says whether the entry whose columns it names (new., old. or none) is a
// message with text: the user's or an agent's, not blank (a character other than a space,
// a tab, a line feed or a carriage return). The catch-up counts them.
//
// A GLOB, not trim(text) compared with the empty string as schema 5 had it: trim copies the
// whole text to give its result, and SQLite copies a bound text once more to end it with a
// NUL before a function reads it. The index and the triggers evaluated it up to five times for each write of an
// entry, so a streaming reply of 700 KB cost ten 700 KB buffers of the C allocator at each
// save, which it keeps for reuse once freed (see migrate6).
func isMessageSQL(row string) string {
	return row + `kind IN ('user', 'agent') AND ` + row + `text GLOB '*[^ ' || char(9, 10, 13) || ']*'`
}

// isMessageSQL5 is isMessageSQL as schema 5 wrote it, which migrate6 replaces.
func isMessageSQL5(row string) string {
	return row + `kind IN ('user', 'agent') AND trim(` + row + `text, ' '||char(9, 10, 13)) <> ''`
}

// countBucketBits: message_counts counts messages by blocks of 1 << countBucketBits entry
// ids.
const countBucketBits = 10

// messageBucketSQL is the block of message_counts of the entry whose columns it names.
func messageBucketSQL(row string) string { return fmt.Sprintf("%sid >> %d", row, countBucketBits) }

// messageCountsSQL makes the partial index of the messages and the triggers that keep
// message_counts, with isMessage telling a message.
func messageCountsSQL(isMessage func(row string) string) []string {
	key := func(row string) string {
		return `conv_id = ` + row + `conv_id AND author = ` + row + `author AND bucket = ` + messageBucketSQL(row)
	}
	count := func(row string) string { // a message counted in its block's row, made if missing
		return `INSERT INTO message_counts(conv_id, author, bucket, n)
				SELECT ` + row + `conv_id, ` + row + `author, ` + messageBucketSQL(row) + `, 0
				WHERE (` + isMessage(row) + `) AND NOT EXISTS (SELECT 1 FROM message_counts WHERE ` + key(row) + `);
			UPDATE message_counts SET n = n + 1 WHERE ` + key(row) + ` AND (` + isMessage(row) + `);`
	}
	uncount := func(row string) string { // a message counted before: its row exists
		return `UPDATE message_counts SET n = n - 1 WHERE ` + key(row) + ` AND (` + isMessage(row) + `);`
	}
	return []string{
		`CREATE INDEX entries_messages ON entries(conv_id, id, author) WHERE ` + isMessage(""),
		`CREATE TRIGGER message_counts_insert AFTER INSERT ON entries BEGIN ` + count("new.") + ` END`,
		// A reply that grows, the most frequent write, changes no count.
		`CREATE TRIGGER message_counts_update AFTER UPDATE OF conv_id, kind, author, text ON entries
		WHEN old.conv_id IS NOT new.conv_id OR old.author IS NOT new.author
			OR (` + isMessage("old.") + `) IS NOT (` + isMessage("new.") + `) BEGIN ` +
			uncount("old.") + count("new.") + ` END`,
		`CREATE TRIGGER message_counts_delete AFTER DELETE ON entries BEGIN ` + uncount("old.") + ` END`,
	}
}

// migrate5 lets the catch-up count the messages an agent missed without reading them:
// message_counts holds, by conversation, author and block of 1024 entry ids, how many
// messages with text there are, kept by triggers whatever writes the entries; a partial
// index of the messages (by conversation and id, with their author) counts the ids at the
// ends of a range, where blocks are partly in it. A count over n entries so reads n/1024
// rows per author and at most 2046 index entries.
//
// The counts are kept as the FTS queue is (migrate2): a missing row is inserted, then
// incremented, rather than upserted, since the statement that fires a trigger imposes its
// own conflict policy on the trigger's. A message taken away only decrements its row: it
// exists, and inserting one for an entry deleted with its conversation would break the
// foreign key.
func migrate5(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx, append([]string{
		`CREATE TABLE message_counts (
			conv_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
			author  TEXT NOT NULL,
			bucket  INTEGER NOT NULL,
			n       INTEGER NOT NULL,
			PRIMARY KEY (conv_id, bucket, author)
		) WITHOUT ROWID`,
		`INSERT INTO message_counts(conv_id, author, bucket, n)
			SELECT conv_id, author, ` + messageBucketSQL("") + `, count(*) FROM entries WHERE ` + isMessageSQL5("") + `
			GROUP BY 1, 2, 3`,
	}, messageCountsSQL(isMessageSQL5)...)...)
}

// migrate6 makes the index and the triggers of migrate5 anew with isMessageSQL, which tells
// the same entries apart without copying their text: the counts stay as they are.
func migrate6(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx, append([]string{
		`DROP INDEX entries_messages`,
		`DROP TRIGGER message_counts_insert`,
		`DROP TRIGGER message_counts_update`,
		`DROP TRIGGER message_counts_delete`,
	}, messageCountsSQL(isMessageSQL)...)...)
}

// countMessagesSQL counts the messages with text of conversation ?1 not written by ?2: over
// the whole blocks from ?3 (included) to ?4 (excluded) from message_counts, and over the
// entry ids from ?5 to ?6 and from ?7 to ?8 (included) from the index entries_messages.
var countMessagesSQL = `SELECT
	(SELECT coalesce(sum(n), 0) FROM message_counts WHERE conv_id = ?1 AND bucket >= ?3 AND bucket < ?4 AND author <> ?2)
	+ (SELECT count(*) FROM entries WHERE conv_id = ?1 AND id BETWEEN ?5 AND ?6 AND author <> ?2 AND ` + isMessageSQL("") + `)
	+ (SELECT count(*) FROM entries WHERE conv_id = ?1 AND id BETWEEN ?7 AND ?8 AND author <> ?2 AND ` + isMessageSQL("") + `)`

// countMessages counts the messages with text of a conversation not written by agent whose
// ids are from lo to hi included, without reading them: whole blocks of ids from their
// counts, the ids at both ends from the index.
func (s *Store) countMessages(conv ConvID, agent string, lo, hi int64) (int, error) {
	const size = 1 << countBucketBits
	first, end := (lo+size-1)/size, (hi+1)/size // the whole blocks: first ≤ block < end
	lo1, hi1, lo2, hi2 := lo, first*size-1, end*size, hi
	if first >= end { // no whole block: the range is counted in one go
		first, end, hi1, lo2, hi2 = 0, 0, hi, 1, 0
	}
	var n int
	err := s.db.QueryRow(countMessagesSQL, conv, agent, first, end, lo1, hi1, lo2, hi2).Scan(&n)
	return n, err
}
