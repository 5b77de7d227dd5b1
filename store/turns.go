package store

import (
	"context"
	"database/sql"
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// migrate4 adds the agents' open turns: a row while an agent's turn runs in a conversation,
// deleted when the turn ends. A row found at the next start is a turn Sidekicks never saw
// end (it was killed, it crashed, the power went): the conversation says so.
func migrate4(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE open_turns (
			conv_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
			agent   TEXT NOT NULL,
			turn    INTEGER NOT NULL,
			started INTEGER NOT NULL DEFAULT 0,
			PRIMARY KEY (conv_id, agent)
		) WITHOUT ROWID`,
	)
}

// turnKey is an agent in a conversation: it has at most one open turn there.
type turnKey struct {
	conv  ConvID
	agent string
}

// Nothing is written for a conversation that is gone; an older turn's closing mark
// leaves a newer open turn alone.
const (
	openTurnSQL = `INSERT INTO open_turns(conv_id, agent, turn, started)
		SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?)
		ON CONFLICT (conv_id, agent) DO UPDATE SET turn = excluded.turn, started = excluded.started`
	closeTurnSQL = `DELETE FROM open_turns WHERE conv_id = ? AND agent = ? AND turn <= ?`
)

// saveTurn writes a turn mark of conv.
func saveTurn(ctx context.Context, tx *sql.Tx, k turnKey, m chat.TurnMark) error {
	var err error
	if m.Open {
		_, err = tx.ExecContext(ctx, openTurnSQL, k.conv, k.agent, m.Turn, unixNano(m.Started), k.conv)
	} else {
		_, err = tx.ExecContext(ctx, closeTurnSQL, k.conv, k.agent, m.Turn)
	}
	return err
}

// OpenTurns returns the turns of conv that began and never ended, by agent.
func (s *Store) OpenTurns(conv ConvID) ([]chat.TurnMark, error) {
	rows, err := s.db.Query(`SELECT agent, turn, started FROM open_turns WHERE conv_id = ? ORDER BY turn, agent`, conv)
	if err != nil {
		return nil, fmt.Errorf("reading the open turns of conversation %d: %w", conv, err)
	}
	var out []chat.TurnMark
	for rows.Next() {
		var m chat.TurnMark
		var started int64
		if err := rows.Scan(&m.Agent, &m.Turn, &started); err != nil {
			rows.Close()
			return nil, fmt.Errorf("reading the open turns of conversation %d: %w", conv, err)
		}
		m.Started, m.Open = unixTime(started), true
		out = append(out, m)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("reading the open turns of conversation %d: %w", conv, err)
	}
	return out, nil
}
