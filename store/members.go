package store

import (
	"context"
	"database/sql"
	"fmt"
)

// AddMember adds an agent at the end of a channel's members; an agent already there stays
// where it is.
func (s *Store) AddMember(id ChannelID, agent string) error {
	if err := checkAgentName(agent); err != nil {
		return fmt.Errorf("adding a member to channel %d: %w", id, err)
	}
	err := s.inTx(context.Background(), func(tx *sql.Tx) error {
		_, err := addMember(tx, id, agent)
		return err
	})
	if err != nil {
		return fmt.Errorf("adding %q to channel %d: %w", agent, id, err)
	}
	return nil
}

// addMember adds agent to channel id unless it is a member; added says whether it was not.
func addMember(tx *sql.Tx, id ChannelID, agent string) (added bool, err error) {
	var exists bool
	if err := tx.QueryRow(`SELECT EXISTS (SELECT 1 FROM channels WHERE id = ?)`, id).Scan(&exists); err != nil {
		return false, err
	}
	if !exists {
		return false, ErrNoChannel
	}
	res, err := tx.Exec(`INSERT INTO members(channel_id, agent, position)
		SELECT ?, ?, coalesce(max(position), 0) + 1 FROM members WHERE channel_id = ?
		ON CONFLICT (channel_id, agent) DO NOTHING`, id, agent, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// RemoveMember removes an agent from a channel's members; its session in the channel is
// kept, for when it comes back. Removing an agent that is not a member does nothing.
func (s *Store) RemoveMember(id ChannelID, agent string) error {
	if _, err := s.db.Exec(`DELETE FROM members WHERE channel_id = ? AND agent = ?`, id, agent); err != nil {
		return fmt.Errorf("removing %q from channel %d: %w", agent, id, err)
	}
	return nil
}

// Members returns a channel's members in the order they joined.
func (s *Store) Members(id ChannelID) ([]string, error) {
	rows, err := s.db.Query(`SELECT agent FROM members WHERE channel_id = ? ORDER BY position`, id)
	if err != nil {
		return nil, fmt.Errorf("listing the members of channel %d: %w", id, err)
	}
	var members []string
	for rows.Next() {
		var agent string
		if err := rows.Scan(&agent); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing the members of channel %d: %w", id, err)
		}
		members = append(members, agent)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("listing the members of channel %d: %w", id, err)
	}
	return members, nil
}
