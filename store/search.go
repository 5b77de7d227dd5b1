package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// DefaultSearchLimit is how many hits Search returns when no limit is given.
const DefaultSearchLimit = 100

// The markers FTS5's snippet puts around matched words: control characters, which sanitized
// entry text never holds.
const (
	markOpen  = "\x02"
	markClose = "\x03"
)

// Hit is an entry found by Search.
type Hit struct {
	Conv ConvID
	// Channel and ChannelName are set for a channel's conversation, Agent for an agent's own.
	Channel     ChannelID
	ChannelName string
	Agent       string
	EntryID     int64
	Kind        chat.EntryKind
	Author      string
	// Time is when the entry was written.
	Time time.Time
	// Snippet is the part of the entry around the match, on one line, "…" where it was cut.
	Snippet string
	// Marks are the byte ranges [start, end) of Snippet that matched, in order.
	Marks [][2]int
}

// Search finds the entries of every conversation that hold all the words of query (the last
// one as a prefix, so that a word being typed matches), accents and case ignored, newest
// first, at most limit of them (DefaultSearchLimit when limit ≤ 0). Any text is a valid
// query: the words are taken literally, never as search syntax; a query with no word finds
// nothing.
func (s *Store) Search(query string, limit int) ([]Hit, error) {
	return s.SearchContext(context.Background(), query, limit)
}

// SearchContext is Search, given up with ctx's error once ctx is done, even in the middle of
// SQLite's work. Its cost is bounded by the hits: each reads at most snippetScan bytes of
// its entry to make its snippet.
func (s *Store) SearchContext(ctx context.Context, query string, limit int) ([]Hit, error) {
	match := matchExpr(query)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	fail := func(err error) ([]Hit, error) {
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = ctxErr
		}
		return nil, fmt.Errorf("searching the history for %q: %w", query, err)
	}
	if err := s.indexPending(ctx); err != nil {
		return fail(err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT f.rowid, substr(e.text, 1, ?), substr(e.extra, 1, ?),
			e.conv_id, e.kind, e.author, e.created,
			coalesce(c.channel_id, 0), coalesce(ch.name, ''), coalesce(c.agent, '')
		FROM (SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT ?) AS f
		JOIN entries e ON e.id = f.rowid
		JOIN conversations c ON c.id = e.conv_id
		LEFT JOIN channels ch ON ch.id = c.channel_id
		ORDER BY f.rowid DESC`, snippetScan+1, snippetScan+1, match, limit)
	if err != nil {
		return fail(err)
	}
	terms := termsOf(query)
	var hits []Hit
	for rows.Next() {
		var h Hit
		var kind, text, extra string
		var created int64
		if err := rows.Scan(&h.EntryID, &text, &extra, &h.Conv, &kind, &h.Author, &created, &h.Channel, &h.ChannelName, &h.Agent); err != nil {
			rows.Close()
			return fail(err)
		}
		if err := ctx.Err(); err != nil {
			rows.Close()
			return fail(err)
		}
		h.Kind = chat.EntryKind(kind)
		h.Time = unixTime(created)
		snip, found := makeSnippet(text, terms)
		if !found {
			if s, ok := makeSnippet(extra, terms); ok || snip == "" {
				snip = s
			}
		}
		h.Snippet, h.Marks = parseSnippet(snip)
		hits = append(hits, h)
	}
	err = closeRows(rows)
	// SQLite read each hit's text whole from its overflow pages, however little of it the
	// snippet takes: a long one leaves the C allocator with a free region to give back.
	trimCMemory()
	if err != nil {
		return fail(err)
	}
	return hits, nil
}

// maxSearchWords bounds the words of a query: a long text pasted in the search box is cut
// rather than making a query that takes seconds.
const maxSearchWords = 32

// matchExpr turns what a user typed into an FTS5 expression that means "all these words":
// each word a quoted phrase (so that quotes, '*', '-', ':', parentheses, AND, OR, NOT and NEAR
// are plain text), the last one a prefix unless a space follows it. Control characters
// separate words; words with no letter or digit, which the tokenizer would drop, and repeated
// words are left out; only the first maxSearchWords count.
func matchExpr(query string) string {
	query = controlsAsSpaces(query)
	words := strings.Fields(query)
	var kept []string
	seen := map[string]bool{}
	for i, w := range words {
		if len(kept) == maxSearchWords {
			break
		}
		if strings.IndexFunc(w, isTokenRune) < 0 {
			continue
		}
		phrase := `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if i == len(words)-1 && !endsWithSpace(query) {
			phrase += "*"
		}
		if !seen[phrase] {
			seen[phrase] = true
			kept = append(kept, phrase)
		}
	}
	return strings.Join(kept, " ")
}

// controlsAsSpaces replaces the control characters of a query by spaces, which separate
// its words.
func controlsAsSpaces(query string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, query)
}

// endsWithSpace reports whether s ends with white space.
func endsWithSpace(s string) bool {
	return strings.TrimRightFunc(s, unicode.IsSpace) != s
}

// isTokenRune reports whether the unicode61 tokenizer keeps r in a word.
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// parseSnippet removes the match markers from a snippet, returning where they were, and
// puts it on one line: each run of white space becomes one space. It never fails, whatever
// the text holds.
func parseSnippet(snip string) (string, [][2]int) {
	var b strings.Builder
	var marks [][2]int
	start := -1
	space := true // drops the leading white space
	for _, r := range snip {
		switch {
		case string(r) == markOpen:
			start = b.Len()
			continue
		case string(r) == markClose:
			if start >= 0 && b.Len() > start {
				marks = append(marks, [2]int{start, b.Len()})
			}
			start = -1
			continue
		case unicode.IsSpace(r):
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	out := b.String()
	if space && len(out) > 0 {
		out = out[:len(out)-1]
		for i := range marks {
			marks[i][1] = min(marks[i][1], len(out))
		}
	}
	return out, marks
}
