package convo

import "strconv"

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
