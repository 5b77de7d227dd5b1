package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// EnsureDeclared brings the channels declared in the configuration into the history, at
// start and at each reload: a declared channel that no channel's name matches (case ignored)
// is created with its description and members; a declared member missing from its channel is
// added at the end. Nothing is removed or renamed, and an existing channel's description is
// left as it is. It returns the names of the channels created and, by channel name (as
// stored), the members added to existing channels. Nothing changes when one declared name is
// invalid.
func (s *Store) EnsureDeclared(channels []config.Channel) (created []string, added map[string][]string, err error) {
	for _, c := range channels {
		if _, err := CleanChannelName(c.Name); err != nil {
			return nil, nil, fmt.Errorf("creating the declared channels: %w", err)
		}
		for _, a := range c.Agents {
			if err := checkAgentName(a); err != nil {
				return nil, nil, fmt.Errorf("creating the declared channel %q: %w", c.Name, err)
			}
		}
	}
	err = s.inTx(context.Background(), func(tx *sql.Tx) error {
		created, added = nil, map[string][]string{}
		fresh := map[ChannelID]bool{}
		for _, c := range channels {
			name, _ := CleanChannelName(c.Name)
			id, err := channelIDByKey(tx, nameKey(name))
			var storedName string
			switch {
			case errors.Is(err, ErrNoChannel):
				ch, err := createChannel(tx, name, c.Description)
				if err != nil {
					return fmt.Errorf("creating channel %q: %w", name, err)
				}
				id, storedName, fresh[ch.ID] = ch.ID, ch.Name, true
				created = append(created, name)
			case err != nil:
				return err
			default:
				if err := tx.QueryRow(`SELECT name FROM channels WHERE id = ?`, id).Scan(&storedName); err != nil {
					return err
				}
			}
			for _, a := range c.Agents {
				ok, err := addMember(tx, id, a)
				if err != nil {
					return fmt.Errorf("adding %q to channel %q: %w", a, storedName, err)
				}
				if ok && !fresh[id] {
					added[storedName] = append(added[storedName], a)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("creating the declared channels: %w", err)
	}
	return created, added, nil
}
