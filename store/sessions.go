package store

import (
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
	for (maxBytes <= 0 || held < maxBytes) && rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		if e.Kind == chat.KindUser || e.Kind == chat.KindAgent {
			held += len(e.Text)
		}
		entries = append(entries, e)
	}
	if err := closeRows(rows); err != nil {
		return nil, 0, err
	}
	slices.Reverse(entries)
	if maxBytes <= 0 || held < maxBytes || len(entries) == 0 {
		return entries, 0, nil
	}
	err = s.db.QueryRow(`SELECT count(*) FROM (`+unseenSQL+` AND id < ?3
		AND kind IN ('user', 'agent') AND trim(text, ' '||char(9, 10, 13)) <> '')`,
		conv, agent, entries[0].ID).Scan(&earlier)
	if err != nil {
		return nil, 0, err
	}
	return entries, earlier, nil
}
