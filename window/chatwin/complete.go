package chatwin

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// The limits of the @ list: the walk stops at maxFiles files that match what follows the @,
// and at most maxShown of those are listed (type one more letter to see the others; the
// list says when it was cut).
const (
	maxFiles = 5000
	maxShown = 200
)

// listKind says which list is open over the bottom of the conversation.
type listKind int

const (
	listNone     listKind = iota
	listCommands          // / as the first character: the agent's commands
	listFiles             // @ starting a word: the workspace's files
)

// choice is one entry of a completion list.
type choice struct {
	// insert is what completing puts in place of the word ("/web ", "@docs/a.md ").
	insert string
	// word is the entry as a complete word ("/web", "@docs/a.md"): Enter on it sends.
	word string
	// name, desc and hint are what the list shows.
	name, desc, hint string
}

// completion is the state of the list: what it completes, its entries, the one
// highlighted, and the files of the last walk.
type completion struct {
	kind     listKind
	from, to int // the word being completed is text[from:to]
	items    []choice
	sel, top int

	// Esc closes the list until the text changes: until the editor's rev differs.
	dismissed    bool
	dismissedRev uint64

	walking bool
	walkGen int
	files   []string
	// walkQuery is what the files of the last walk match (the typed text in lower case when
	// it started); walkCut says that the walk stopped before the end of the workspace, so
	// that a longer text may find files it did not reach; stopWalk cancels the walk under way.
	walkQuery string
	walkCut   bool
	stopWalk  func()
	walker    Walker // the Walker of the last walk
	// more says that more files match than the list holds: the walk or the list was cut.
	more bool
	// walkOf is the agent whose workspace files holds, in a channel (a command line's
	// agent).
	walkOf string
}

// visible reports whether the list is on screen: it has entries, or it waits for the walk.
func (c *completion) visible() bool {
	return c.kind != listNone && (len(c.items) > 0 || c.kind == listFiles && c.walking)
}

// ready reports whether there is an entry to take.
func (c *completion) ready() bool { return c.kind != listNone && len(c.items) > 0 }

// current returns the highlighted entry.
func (c *completion) current() choice { return c.items[c.sel] }

// exact reports whether the word being completed already reads as one of the entries.
func (c *completion) exact(text string) bool {
	w := text[c.from:c.to]
	for _, it := range c.items {
		if it.word == w {
			return true
		}
	}
	return false
}

// move moves the highlight by d entries, within the list.
func (c *completion) move(d int) {
	if len(c.items) == 0 {
		return
	}
	c.sel = min(max(c.sel+d, 0), len(c.items)-1)
}

// dismiss closes the list until the text changes.
func (c *completion) dismiss(rev uint64) {
	c.dismissed, c.dismissedRev = true, rev
	c.kind, c.items = listNone, nil
}

// update recomputes the list after a change of the text or of the cursor. It returns true
// when a file list opens, which asks for a new walk of the workspace.
func (c *completion) update(text string, cursor int, rev uint64, commands []chat.Command) (walk bool) {
	if c.dismissed && rev == c.dismissedRev {
		return false
	}
	c.dismissed = false
	was, wasFrom := c.kind, c.from
	c.kind, c.items = listNone, c.items[:0]
	if from, to, ok := commandSpan(text, cursor, commands); ok && len(commands) > 0 {
		c.kind, c.from, c.to = listCommands, from, to
		for _, cmd := range chat.FilterCommands(commands, text[from+1:cursor]) {
			ch := choice{insert: "/" + cmd.Name, word: "/" + cmd.Name, name: "/" + cmd.Name, desc: cmd.Description}
			if cmd.HasInput {
				ch.insert += " "
				if cmd.InputHint != "" {
					ch.hint = "<" + cmd.InputHint + ">"
				}
			}
			c.items = append(c.items, ch)
		}
	} else if from, to, ok := mentionWord(text, cursor); ok {
		c.kind, c.from, c.to = listFiles, from, to
		typed := text[from+1 : cursor]
		walk = was != listFiles || wasFrom != from || c.needsWalk(typed)
		if !walk {
			c.filterFiles(typed)
		}
	}
	if c.kind != was || c.from != wasFrom {
		c.sel, c.top = 0, 0
	}
	c.sel = min(c.sel, max(len(c.items)-1, 0))
	return walk
}

// needsWalk reports whether the files of the last walk cannot answer typed: it does not
// narrow what the walk matched (text was erased), or the walk was cut and typed is longer.
// A walk under way answers a text that narrows its own: it is judged when it ends.
func (c *completion) needsWalk(typed string) bool {
	typed = strings.ToLower(typed)
	if !strings.Contains(typed, c.walkQuery) {
		return true
	}
	return !c.walking && c.walkCut && typed != c.walkQuery
}

// walkKeeps is what a walk for typed keeps: the paths that contain it, ignoring case (a
// name that starts with it is such a path).
func walkKeeps(typed string) func(string) bool {
	typed = strings.ToLower(typed)
	if typed == "" {
		return nil
	}
	return func(p string) bool { return strings.Contains(strings.ToLower(p), typed) }
}

// filterFiles lists the walked files that match typed: those whose own name starts with it
// first, then those whose path only contains it, ignoring case, maxShown at most.
func (c *completion) filterFiles(typed string) {
	c.items = c.items[:0]
	c.more = false
	if c.walking {
		return
	}
	typed = strings.ToLower(typed)
	var later []string
	for _, f := range c.files {
		lower := strings.ToLower(f)
		switch {
		case !strings.Contains(lower, typed):
		case strings.HasPrefix(path.Base(lower), typed) && len(c.items) < maxShown:
			c.items = append(c.items, fileChoice(f))
		case len(c.items)+len(later) < maxShown:
			later = append(later, f)
		default:
			c.more = true
		}
	}
	for i, f := range later {
		if len(c.items) >= maxShown {
			c.more = c.more || i < len(later)
			break
		}
		c.items = append(c.items, fileChoice(f))
	}
	c.more = c.more || c.walkCut
}

func fileChoice(f string) choice {
	return choice{insert: "@" + f + " ", word: "@" + f, name: f}
}

// commandWord returns the first word of the text when it starts with / and the cursor is in
// it (after the /).
func commandWord(text string, cursor int) (from, to int, ok bool) {
	if !strings.HasPrefix(text, "/") || cursor < 1 {
		return 0, 0, false
	}
	to = len(text)
	if i := strings.IndexFunc(text, unicode.IsSpace); i >= 0 {
		to = i
	}
	return 0, to, cursor <= to
}

// maxMention is the longest mention completed, @ included: a path of Linux's PATH_MAX.
const maxMention = 4096

// mentionWord returns the word around the cursor when it starts with @ (a mention starts a
// word: at the start of the text or after white space, as chat.SplitMentions reads it).
func mentionWord(text string, cursor int) (from, to int, ok bool) {
	// A mention is a path: one longer than maxMention is not looked for, so that a key after
	// a megabyte pasted with no space does not look back through all of it.
	start := max(cursor-maxMention-1, 0)
	if i := strings.LastIndexFunc(text[start:cursor], unicode.IsSpace); i >= 0 {
		_, size := utf8.DecodeRuneInString(text[start+i:])
		from = start + i + size
	} else if start > 0 {
		return 0, 0, false
	}
	if from >= len(text) || text[from] != '@' || cursor <= from {
		return 0, 0, false
	}
	to = len(text)
	if i := strings.IndexFunc(text[cursor:], unicode.IsSpace); i >= 0 {
		to = cursor + i
	}
	return from, to, true
}
