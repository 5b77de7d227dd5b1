package store

import (
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// exportPage is how many entries EachEntry reads at once: the whole conversation is never
// in memory, whatever its length.
const exportPage = 500

// afterSQL reads the entries of a conversation after an entry, oldest first.
const afterSQL = `SELECT ` + entryColumns + ` FROM entries WHERE conv_id = ? AND id > ? ORDER BY id LIMIT ?`

// EachEntry calls f with every entry of a conversation, oldest first, a page at a time (an
// export of the whole history). It stops at f's first error and returns it.
func (s *Store) EachEntry(conv ConvID, f func(chat.Entry) error) error {
	var after int64
	for {
		page, err := queryEntries(s.db.Query(afterSQL, conv, after, exportPage))
		if err != nil {
			return fmt.Errorf("reading the entries of conversation %d after %d: %w", conv, after, err)
		}
		for _, e := range page {
			if err := f(e); err != nil {
				return err
			}
		}
		if len(page) < exportPage {
			return nil
		}
		after = page[len(page)-1].ID
	}
}
