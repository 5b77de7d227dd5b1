package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// MaxChannelName is the longest channel name, in characters.
const MaxChannelName = 64

// ChannelID identifies a channel; it stays the same when the channel is renamed.
type ChannelID int64

// Channel is a channel of the configuration's history.
type Channel struct {
	ID          ChannelID
	Name        string
	Description string
	// Members are the agents of the channel, in the order they joined.
	Members []string
	Created time.Time
}

// CleanChannelName returns name without its surrounding spaces, or an error wrapping
// ErrBadName when it is empty, longer than MaxChannelName characters, not UTF-8, or holds a
// control character. Accents and inner spaces are kept.
func CleanChannelName(name string) (string, error) {
	clean := strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(clean); {
	case !utf8.ValidString(clean):
		return "", fmt.Errorf("channel name %q: not UTF-8: %w", name, ErrBadName)
	case n == 0:
		return "", fmt.Errorf("channel name %q: empty: %w", name, ErrBadName)
	case n > MaxChannelName:
		return "", fmt.Errorf("channel name %q: %d characters, %d at most: %w", name, n, MaxChannelName, ErrBadName)
	case strings.IndexFunc(clean, unicode.IsControl) >= 0:
		return "", fmt.Errorf("channel name %q: control character: %w", name, ErrBadName)
	}
	return clean, nil
}

// nameKey is what two channel names that differ only by case have in common: the same key
// the configuration loader compares declared channels by, so that a name the loader calls
// a duplicate is one the store calls taken.
func nameKey(name string) string {
	return config.ChannelKey(name)
}

// checkAgentName refuses an empty agent name, one that is not UTF-8 or holds a control
// character.
func checkAgentName(agent string) error {
	if agent == "" || !utf8.ValidString(agent) || strings.IndexFunc(agent, unicode.IsControl) >= 0 {
		return fmt.Errorf("agent name %q: %w", agent, ErrBadName)
	}
	return nil
}

// CreateChannel creates a channel with no members. Its name is cleaned by CleanChannelName;
// another channel with the same name, case ignored, makes an error wrapping ErrNameTaken.
func (s *Store) CreateChannel(name, description string) (Channel, error) {
	clean, err := CleanChannelName(name)
	if err != nil {
		return Channel{}, fmt.Errorf("creating a channel: %w", err)
	}
	var ch Channel
	err = s.inTx(context.Background(), func(tx *sql.Tx) error {
		var err error
		ch, err = createChannel(tx, clean, description)
		return err
	})
	if err != nil {
		return Channel{}, fmt.Errorf("creating channel %q: %w", clean, err)
	}
	return ch, nil
}

// createChannel inserts a channel whose name is clean.
func createChannel(tx *sql.Tx, name, description string) (Channel, error) {
	if _, err := channelIDByKey(tx, nameKey(name)); err == nil {
		return Channel{}, ErrNameTaken
	} else if !errors.Is(err, ErrNoChannel) {
		return Channel{}, err
	}
	now := time.Now()
	res, err := tx.Exec(`INSERT INTO channels(name, name_key, description, created) VALUES (?, ?, ?, ?)`,
		name, nameKey(name), description, now.UnixNano())
	if err != nil {
		return Channel{}, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Channel{}, err
	}
	return Channel{ID: ChannelID(id), Name: name, Description: description, Created: time.Unix(0, now.UnixNano())}, nil
}

// channelIDByKey finds the channel whose name has this key.
func channelIDByKey(tx *sql.Tx, key string) (ChannelID, error) {
	var id ChannelID
	err := tx.QueryRow(`SELECT id FROM channels WHERE name_key = ?`, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ErrNoChannel
	}
	return id, err
}

// Channels returns every channel with its members, in the order they were created.
func (s *Store) Channels() ([]Channel, error) {
	ctx := context.Background()
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, description, created FROM channels ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("listing channels: %w", err)
	}
	var chans []Channel
	index := map[ChannelID]int{}
	for rows.Next() {
		var ch Channel
		var created int64
		if err := rows.Scan(&ch.ID, &ch.Name, &ch.Description, &created); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing channels: %w", err)
		}
		ch.Created = unixTime(created)
		index[ch.ID] = len(chans)
		chans = append(chans, ch)
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("listing channels: %w", err)
	}
	rows, err = s.db.QueryContext(ctx, `SELECT channel_id, agent FROM members ORDER BY channel_id, position`)
	if err != nil {
		return nil, fmt.Errorf("listing channel members: %w", err)
	}
	for rows.Next() {
		var id ChannelID
		var agent string
		if err := rows.Scan(&id, &agent); err != nil {
			rows.Close()
			return nil, fmt.Errorf("listing channel members: %w", err)
		}
		// A channel created between the two queries is left without members.
		if i, ok := index[id]; ok {
			chans[i].Members = append(chans[i].Members, agent)
		}
	}
	if err := closeRows(rows); err != nil {
		return nil, fmt.Errorf("listing channel members: %w", err)
	}
	return chans, nil
}

// ChannelByName returns the channel with this name, case and surrounding spaces ignored; an
// error wrapping ErrNoChannel when there is none.
func (s *Store) ChannelByName(name string) (Channel, error) {
	var id ChannelID
	err := s.db.QueryRow(`SELECT id FROM channels WHERE name_key = ?`, nameKey(strings.TrimSpace(name))).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return Channel{}, fmt.Errorf("finding channel %q: %w", name, ErrNoChannel)
	}
	if err != nil {
		return Channel{}, fmt.Errorf("finding channel %q: %w", name, err)
	}
	return s.Channel(id)
}

// Channel returns the channel with this id; an error wrapping ErrNoChannel when there is
// none.
func (s *Store) Channel(id ChannelID) (Channel, error) {
	ch := Channel{ID: id}
	var created int64
	err := s.db.QueryRow(`SELECT name, description, created FROM channels WHERE id = ?`, id).
		Scan(&ch.Name, &ch.Description, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return Channel{}, fmt.Errorf("reading channel %d: %w", id, ErrNoChannel)
	}
	if err != nil {
		return Channel{}, fmt.Errorf("reading channel %d: %w", id, err)
	}
	ch.Created = unixTime(created)
	if ch.Members, err = s.Members(id); err != nil {
		return Channel{}, err
	}
	return ch, nil
}

// RenameChannel renames a channel; its conversation and members stay. Changing only the
// case of the name is allowed; another channel's name, case ignored, is an error wrapping
// ErrNameTaken.
func (s *Store) RenameChannel(id ChannelID, newName string) error {
	clean, err := CleanChannelName(newName)
	if err != nil {
		return fmt.Errorf("renaming channel %d: %w", id, err)
	}
	err = s.inTx(context.Background(), func(tx *sql.Tx) error {
		other, err := channelIDByKey(tx, nameKey(clean))
		if err == nil && other != id {
			return ErrNameTaken
		} else if err != nil && !errors.Is(err, ErrNoChannel) {
			return err
		}
		res, err := tx.Exec(`UPDATE channels SET name = ?, name_key = ? WHERE id = ?`, clean, nameKey(clean), id)
		if err != nil {
			return err
		}
		return oneRow(res, ErrNoChannel)
	})
	if err != nil {
		return fmt.Errorf("renaming channel %d to %q: %w", id, clean, err)
	}
	return nil
}

// SetDescription changes a channel's description.
func (s *Store) SetDescription(id ChannelID, description string) error {
	res, err := s.db.Exec(`UPDATE channels SET description = ? WHERE id = ?`, description, id)
	if err == nil {
		err = oneRow(res, ErrNoChannel)
	}
	if err != nil {
		return fmt.Errorf("setting the description of channel %d: %w", id, err)
	}
	return nil
}

// DeleteChannel deletes a channel with its members, its conversation, every entry of it and
// its agents' sessions.
func (s *Store) DeleteChannel(id ChannelID) error {
	res, err := s.db.Exec(`DELETE FROM channels WHERE id = ?`, id)
	if err == nil {
		err = oneRow(res, ErrNoChannel)
	}
	if err != nil {
		return fmt.Errorf("deleting channel %d: %w", id, err)
	}
	return nil
}
