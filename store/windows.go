package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// WindowKind says what a remembered window shows.
type WindowKind string

// The windows the application remembers between runs. Other windows (the list of keys,
// the configuration's errors, the agents' status) are made again when needed.
const (
	WindowChannel WindowKind = "channel" // a channel's conversation
	WindowAgent   WindowKind = "agent"   // an agent's own conversation
)

// WindowRef is one window open when the application last saved its windows.
type WindowRef struct {
	Kind WindowKind
	// Channel is the channel of a WindowChannel window; its window is forgotten when the
	// channel is deleted, and follows it when it is renamed.
	Channel ChannelID
	// Agent is the agent of a WindowAgent window.
	Agent string
	// Focused marks the window that had the keyboard.
	Focused bool
}

// windowsSavedKey is the ui_state key that says the windows were saved at least once, so
// that "no window was open" is told apart from "never saved".
const windowsSavedKey = "windows.saved"

// migrate3 adds what the screen remembers between runs: the open windows, in order, and a
// small key-value table of other screen state.
func migrate3(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE ui_windows (
			position   INTEGER PRIMARY KEY,
			kind       TEXT NOT NULL,
			channel_id INTEGER REFERENCES channels(id) ON DELETE CASCADE,
			agent      TEXT,
			focused    INTEGER NOT NULL DEFAULT 0
		)`,
		`CREATE TABLE ui_state (
			key   TEXT PRIMARY KEY,
			value TEXT NOT NULL
		) WITHOUT ROWID`,
	)
}

// SaveWindows replaces the remembered windows with refs, in their order. A channel window
// whose channel no longer exists, an agent window without an agent or a window of an
// unknown kind is an error, and nothing changes.
func (s *Store) SaveWindows(refs []WindowRef) error {
	err := s.inTx(context.Background(), func(tx *sql.Tx) error {
		if _, err := tx.Exec(`DELETE FROM ui_windows`); err != nil {
			return err
		}
		for i, r := range refs {
			var channel, agent any
			switch r.Kind {
			case WindowChannel:
				var exists bool
				if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM channels WHERE id = ?)`, r.Channel).Scan(&exists); err != nil {
					return err
				}
				if !exists {
					return fmt.Errorf("window %d, channel %d: %w", i+1, r.Channel, ErrNoChannel)
				}
				channel = r.Channel
			case WindowAgent:
				if err := checkAgentName(r.Agent); err != nil {
					return fmt.Errorf("window %d: %w", i+1, err)
				}
				agent = r.Agent
			default:
				return fmt.Errorf("window %d: unknown kind %q", i+1, r.Kind)
			}
			if _, err := tx.Exec(`INSERT INTO ui_windows(position, kind, channel_id, agent, focused) VALUES (?, ?, ?, ?, ?)`,
				i, string(r.Kind), channel, agent, r.Focused); err != nil {
				return err
			}
		}
		_, err := tx.Exec(`INSERT INTO ui_state(key, value) VALUES (?, '1')
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, windowsSavedKey)
		return err
	})
	if err != nil {
		return fmt.Errorf("saving the open windows: %w", err)
	}
	return nil
}

// Windows returns the windows saved last, in order, without those of channels deleted
// since. saved is false when the windows were never saved (a new history): the
// application then opens its first windows its own way.
func (s *Store) Windows() (refs []WindowRef, saved bool, err error) {
	var v string
	err = s.db.QueryRow(`SELECT value FROM ui_state WHERE key = ?`, windowsSavedKey).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading the saved windows: %w", err)
	}
	rows, err := s.db.Query(`SELECT kind, coalesce(channel_id, 0), coalesce(agent, ''), focused FROM ui_windows ORDER BY position`)
	if err != nil {
		return nil, false, fmt.Errorf("reading the saved windows: %w", err)
	}
	for rows.Next() {
		var r WindowRef
		var kind string
		if err := rows.Scan(&kind, &r.Channel, &r.Agent, &r.Focused); err != nil {
			rows.Close()
			return nil, false, fmt.Errorf("reading the saved windows: %w", err)
		}
		r.Kind = WindowKind(kind)
		refs = append(refs, r)
	}
	if err := closeRows(rows); err != nil {
		return nil, false, fmt.Errorf("reading the saved windows: %w", err)
	}
	return refs, true, nil
}
