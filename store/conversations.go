package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// ConvID identifies a conversation: a channel's, or an agent's own window's.
type ConvID int64

// ChannelConversation returns the conversation of a channel, created on first use; an error
// wrapping ErrNoChannel when the channel does not exist.
func (s *Store) ChannelConversation(id ChannelID) (ConvID, error) {
	var conv ConvID
	err := s.db.QueryRow(`SELECT id FROM conversations WHERE channel_id = ?`, id).Scan(&conv)
	if err == nil {
		return conv, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("finding the conversation of channel %d: %w", id, err)
	}
	_, err = s.db.Exec(`INSERT INTO conversations(channel_id)
		SELECT ? WHERE EXISTS (SELECT 1 FROM channels WHERE id = ?)
		ON CONFLICT (channel_id) DO NOTHING`, id, id)
	if err == nil {
		err = s.db.QueryRow(`SELECT id FROM conversations WHERE channel_id = ?`, id).Scan(&conv)
	}
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNoChannel
	}
	if err != nil {
		return 0, fmt.Errorf("creating the conversation of channel %d: %w", id, err)
	}
	return conv, nil
}

// AgentConversation returns the conversation of an agent's own window, created on first use.
func (s *Store) AgentConversation(agent string) (ConvID, error) {
	if err := checkAgentName(agent); err != nil {
		return 0, fmt.Errorf("finding an agent's conversation: %w", err)
	}
	var conv ConvID
	err := s.db.QueryRow(`SELECT id FROM conversations WHERE agent = ?`, agent).Scan(&conv)
	if err == nil {
		return conv, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("finding the conversation of agent %q: %w", agent, err)
	}
	_, err = s.db.Exec(`INSERT INTO conversations(agent) VALUES (?) ON CONFLICT (agent) DO NOTHING`, agent)
	if err == nil {
		err = s.db.QueryRow(`SELECT id FROM conversations WHERE agent = ?`, agent).Scan(&conv)
	}
	if err != nil {
		return 0, fmt.Errorf("creating the conversation of agent %q: %w", agent, err)
	}
	return conv, nil
}
