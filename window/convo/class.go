package convo

import (
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"git.rickub.com/bots-garden/sidekicks/window/markdown"
)

// The class names the view emits. The syntax.*, diagnostic.* and editor.* names are those of
// the Turbo Python spec's "Coloration" table, which every theme defines; the others
// (diff.added, diff.removed, syntax.builtin, icon.N) are Sidekicks' own, and a theme that
// lacks one draws it as ClassText.
const (
	ClassText     = "text"
	ClassKeyword  = "syntax.keyword" // a speaker's name; keywords in code; headings
	ClassComment  = "syntax.comment" // a thought; comments in code; fences; diff hunks
	ClassType     = "syntax.type"    // a tool call and its state; types in code; plan marks
	ClassString   = "syntax.string"
	ClassNumber   = "syntax.number"
	ClassFunction = "syntax.function"
	ClassOperator = "syntax.operator"
	ClassBuiltin  = "syntax.builtin"
	ClassError    = "diagnostic.error"   // a failed tool call; Sidekicks' notices; bytes lost
	ClassWarning  = "diagnostic.warning" // a tool call its turn left unfinished
	ClassAdded    = "diff.added"
	ClassRemoved  = "diff.removed"
	// ClassSelection is not emitted: the drawer paints selected rows and the cursor bar with it.
	ClassSelection = "editor.selection"
)

// IconColours is how many colours the round of a letter icon can take: IconClass(0) to
// IconClass(IconColours-1).
const IconColours = 8

var iconClasses = func() [IconColours]string {
	var c [IconColours]string
	for i := range c {
		c[i] = "icon." + strconv.Itoa(i)
	}
	return c
}()

// IconClass returns the class of a letter icon of colour index i: "icon.0" to "icon.7". The
// theme gives each a background colour and a foreground that reads on it.
func IconClass(i int) string {
	if i < 0 || i >= IconColours {
		i = 0
	}
	return iconClasses[i]
}

// class is a class name as a line keeps it: its index in the table of the names met (two
// bytes, where the name's string takes sixteen). The names come from a bounded set: the
// constants above, the icon classes, those of window/markdown; the table is filled with
// them first, and takes any other name the first time it is met.
type class uint16

// classTable is the names met, and their indexes. It is never changed once published: a
// name met for the first time publishes a new table (addClass).
type classTable struct {
	names []string
	ids   map[string]class
}

var (
	classes   atomic.Pointer[classTable]
	classesMu sync.Mutex // serializes addClass
)

func init() {
	t := &classTable{ids: map[string]class{}}
	known := []string{"", ClassText, ClassKeyword, ClassComment, ClassType, ClassString, ClassNumber,
		ClassFunction, ClassOperator, ClassBuiltin, ClassError, ClassWarning, ClassAdded, ClassRemoved,
		markdown.ClassHeading, markdown.ClassStrong, markdown.ClassEmphasis, markdown.ClassStrike,
		markdown.ClassCode, markdown.ClassLink, markdown.ClassMarker}
	for _, name := range append(known, iconClasses[:]...) {
		if _, ok := t.ids[name]; !ok {
			t.ids[name] = class(len(t.names))
			t.names = append(t.names, name)
		}
	}
	classes.Store(t)
}

// classNamed returns the class of a name. It takes no lock for a name met before (any
// goroutine may call it).
func classNamed(name string) class {
	if name == ClassText {
		return classText
	}
	if id, ok := classes.Load().ids[name]; ok {
		return id
	}
	return addClass(name)
}

// classText is ClassText's class, the commonest.
const classText class = 1

// maxClasses bounds the table. The names come from a bounded set, far below it; should a
// name come past it, it is drawn as ClassText.
const maxClasses = 1 << 16

// addClass enters a name in the table.
func addClass(name string) class {
	classesMu.Lock()
	defer classesMu.Unlock()
	t := classes.Load()
	if id, ok := t.ids[name]; ok {
		return id
	}
	if len(t.names) >= maxClasses {
		return classText
	}
	nt := &classTable{names: append(slices.Clip(t.names), name), ids: maps.Clone(t.ids)}
	id := class(len(t.names))
	nt.ids[name] = id
	classes.Store(nt)
	return id
}

// name returns the class's name.
func (c class) name() string { return classes.Load().names[c] }
