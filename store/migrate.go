package store

import (
	"context"
	"database/sql"
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// migrations brings a database from one schema version to the next: migrations[i] turns
// version i into version i+1. The version is SQLite's user_version, 0 for a new file. A step
// once released is never changed; a new schema is a new step.
var migrations = []func(ctx context.Context, tx *sql.Tx) error{
	migrate1,
	migrate2,
	migrate3, // windows.go: the windows the screen remembers
	migrate4, // turns.go: the agents' open turns
	migrate5, // sessions.go: what the catch-up counts without reading it
	migrate6, // sessions.go: the same, without copying each entry's text
}

// SchemaVersion is the schema version this Sidekicks writes.
func SchemaVersion() int {
	return len(migrations)
}

// NewerSchemaError says the database was written by a newer Sidekicks, whose schema this one
// does not know; the file was left as it was.
type NewerSchemaError struct {
	Path  string
	Found int // the database's schema version
	Known int // the newest version this Sidekicks knows
}

// Error says it in English; Message says it in the user's language.
func (e *NewerSchemaError) Error() string {
	return e.Message(i18n.English)
}

// Message says it in lang.
func (e *NewerSchemaError) Message(lang i18n.Lang) string {
	return catalogue.Text(lang, mNewerSchema, e.Path, e.Found, e.Known)
}

// userVersion reads the database's schema version.
func userVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("reading the schema version: %w", err)
	}
	return v, nil
}

// migrate runs every missing step in one transaction: a crash in the middle leaves the
// database at its previous version.
func migrate(ctx context.Context, db *sql.DB, path string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrating the history %s: %w", path, err)
	}
	defer tx.Rollback()
	v, err := userVersion(ctx, tx)
	if err != nil {
		return fmt.Errorf("migrating the history %s: %w", path, err)
	}
	if v > len(migrations) {
		return &NewerSchemaError{Path: path, Found: v, Known: len(migrations)}
	}
	for i := v; i < len(migrations); i++ {
		if err := migrations[i](ctx, tx); err != nil {
			return fmt.Errorf("migrating the history %s to version %d: %w", path, i+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		return fmt.Errorf("migrating the history %s: setting the version: %w", path, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrating the history %s: %w", path, err)
	}
	return nil
}

// execAll runs each statement in order.
func execAll(ctx context.Context, tx *sql.Tx, stmts ...string) error {
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// migrate1 creates the channels, their members, the conversations, their entries and the
// per-(conversation, agent) sessions. Times are Unix nanoseconds, 0 for none.
func migrate1(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE channels (
			id          INTEGER PRIMARY KEY AUTOINCREMENT,
			name        TEXT NOT NULL,
			name_key    TEXT NOT NULL,
			description TEXT NOT NULL DEFAULT '',
			created     INTEGER NOT NULL
		)`,
		`CREATE UNIQUE INDEX channels_name_key ON channels(name_key)`,
		`CREATE TABLE members (
			channel_id INTEGER NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
			agent      TEXT NOT NULL,
			position   INTEGER NOT NULL,
			PRIMARY KEY (channel_id, agent)
		) WITHOUT ROWID`,
		`CREATE TABLE conversations (
			id         INTEGER PRIMARY KEY AUTOINCREMENT,
			channel_id INTEGER UNIQUE REFERENCES channels(id) ON DELETE CASCADE,
			agent      TEXT UNIQUE,
			CHECK ((channel_id IS NULL) <> (agent IS NULL))
		)`,
		// Entry ids are handed out by the store, from the largest one stored (see
		// Store.newEntryID).
		`CREATE TABLE entries (
			id      INTEGER PRIMARY KEY,
			conv_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
			kind    TEXT NOT NULL,
			author  TEXT NOT NULL DEFAULT '',
			turn    INTEGER NOT NULL DEFAULT 0,
			created INTEGER NOT NULL DEFAULT 0,
			updated INTEGER NOT NULL DEFAULT 0,
			text    TEXT NOT NULL DEFAULT '',
			lost    INTEGER NOT NULL DEFAULT 0,
			tool    TEXT,
			plan    TEXT,
			extra   TEXT NOT NULL DEFAULT '',
			done    INTEGER NOT NULL DEFAULT 0
		)`,
		`CREATE INDEX entries_conv ON entries(conv_id, id)`,
		`CREATE TABLE sessions (
			conv_id    INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
			agent      TEXT NOT NULL,
			session_id TEXT NOT NULL DEFAULT '',
			seen       INTEGER NOT NULL DEFAULT 0,
			PRIMARY KEY (conv_id, agent)
		) WITHOUT ROWID`,
	)
}

// migrate2 adds the full-text index of entries: their text, and in extra a tool call's title
// and files and a plan's steps.
//
// Indexing one entry per transaction costs FTS5 several times what the entry itself costs,
// so the index is kept in step in batches: writing an entry only queues its id in
// entries_fts_pending, in the same transaction; Store.indexPending indexes the queue, before
// each search and every indexEvery writes. An entry already indexed is taken out of the
// index (with its old values, as FTS5 needs) when it changes or is deleted, and queued again
// if it changed. (The triggers test for a queued id rather than using INSERT OR IGNORE: the
// statement that fires a trigger imposes its own conflict policy on the trigger's.)
func migrate2(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE VIRTUAL TABLE entries_fts USING fts5(
			text, extra,
			content = 'entries', content_rowid = 'id',
			tokenize = 'unicode61 remove_diacritics 2'
		)`,
		`CREATE TABLE entries_fts_pending (id INTEGER PRIMARY KEY)`,
		`CREATE TRIGGER entries_fts_insert AFTER INSERT ON entries BEGIN
			INSERT INTO entries_fts_pending(id) SELECT new.id
				WHERE NOT EXISTS (SELECT 1 FROM entries_fts_pending WHERE id = new.id);
		END`,
		`CREATE TRIGGER entries_fts_update AFTER UPDATE OF text, extra ON entries
		WHEN old.text IS NOT new.text OR old.extra IS NOT new.extra BEGIN
			INSERT INTO entries_fts(entries_fts, rowid, text, extra)
				SELECT 'delete', old.id, old.text, old.extra
				WHERE NOT EXISTS (SELECT 1 FROM entries_fts_pending WHERE id = old.id);
			INSERT INTO entries_fts_pending(id) SELECT new.id
				WHERE NOT EXISTS (SELECT 1 FROM entries_fts_pending WHERE id = new.id);
		END`,
		`CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
			INSERT INTO entries_fts(entries_fts, rowid, text, extra)
				SELECT 'delete', old.id, old.text, old.extra
				WHERE NOT EXISTS (SELECT 1 FROM entries_fts_pending WHERE id = old.id);
			DELETE FROM entries_fts_pending WHERE id = old.id;
		END`,
		`INSERT INTO entries_fts(entries_fts) VALUES ('rebuild')`,
	)
}
