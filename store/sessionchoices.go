package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// SessionChoices are the mode and the options a user chose in one of an agent's ACP
// sessions (Agent ▸ Session options…), applied again when the session is reloaded.
type SessionChoices struct {
	// Mode is the id of the mode chosen last ("" when none was).
	Mode string `json:"mode,omitempty"`
	// Options are the values chosen, by option id ("true"/"false" for a boolean).
	Options map[string]string `json:"options,omitempty"`
}

// maxChoices bounds the options remembered for one session.
const maxChoices = 64

// choicesKey is the ui_state key of a session's choices.
func choicesKey(agent, sessionID string) string {
	return "session-choices\x00" + agent + "\x00" + sessionID
}

// SetSessionChoices remembers the choices made in an agent's session.
func (s *Store) SetSessionChoices(agent, sessionID string, c SessionChoices) error {
	if err := checkAgentName(agent); err != nil {
		return fmt.Errorf("remembering the session options: %w", err)
	}
	if len(c.Options) > maxChoices {
		return fmt.Errorf("remembering the session options of %q: more than %d options", agent, maxChoices)
	}
	data, err := json.Marshal(c)
	if err == nil {
		_, err = s.db.Exec(`INSERT INTO ui_state(key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, choicesKey(agent, sessionID), string(data))
	}
	if err != nil {
		return fmt.Errorf("remembering the session options of %q: %w", agent, err)
	}
	return nil
}

// SessionChoices returns the choices made in an agent's session (none when nothing was
// chosen there).
func (s *Store) SessionChoices(agent, sessionID string) (SessionChoices, error) {
	var v string
	err := s.db.QueryRow(`SELECT value FROM ui_state WHERE key = ?`, choicesKey(agent, sessionID)).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return SessionChoices{}, nil
	}
	var c SessionChoices
	if err == nil {
		err = json.Unmarshal([]byte(v), &c)
	}
	if err != nil {
		return SessionChoices{}, fmt.Errorf("reading the session options of %q: %w", agent, err)
	}
	return c, nil
}
