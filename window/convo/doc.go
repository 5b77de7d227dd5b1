// Package convo is the layout model of a conversation view, independent of any screen: it
// turns the entries of a chat.Conversation into rows of coloured spans wrapped to a width,
// keeps them cached per entry, and answers what a frame, a scroll or a copy needs.
//
// It knows nothing of tcell. A span carries a class name ("syntax.keyword", "diff.added",
// "icon.3"…, see class.go); the drawer maps names to the theme's styles.
//
// What the drawer calls, all on the UI goroutine:
//
//	hl := convo.NewHighlighter(convo.HighlighterOptions{Go: …}) // once, for every view
//	v := convo.New(conv, convo.Options{Labels: convo.LabelsFor(lang), Speaker: …,
//		Wake: invalidate, Highlighter: hl})
//	v.SetSize(width, height)   // on every resize: cheap, entries off screen are re-wrapped later
//	// each frame:
//	v.Sync()                   // reads what changed in the conversation
//	top, rows := v.Frame()     // the rows of the viewport and the number of the first
//	for y, r := range rows {   // draw r.Spans from column r.Indent on line y
//	}
//	// on keys and the mouse:
//	v.ScrollBy(n), v.ScrollTo(row), v.ScrollToBottom(), v.ScrollToShow(cursorRow), v.Total()
//	text, n := v.CopyRegion(cursorRow)        // or v.CopySelection(fromRow, toRow)
//	tty.Write(convo.OSC52(text))              // and the editor clipboard; "n lines copied"
//
// A row is drawn at column Row.Indent, its spans one after the other; no row is wider than
// the width (a cluster is measured with uniseg, as tcell does). Rows are numbered from 0 at
// the top of the conversation. A row number stays valid while only the end of the
// conversation changes; to keep a cursor or a selection across a resize or a change above
// it, hold an Anchor (AnchorAt) and ask RowOf each frame.
//
// A frame costs what is visible. Sync reads only the entries that may have changed (those
// still streaming, the last few, the visible ones, and a few tool calls and notices in turn),
// and of a streaming entry only what was appended: a text's Markdown is drawn by
// window/markdown block by block (the blocks before the last are kept, the last is read
// again when one of its lines is complete), and the line still arriving keeps its rows but
// the last two. Row counts live in a Fenwick tree, so
// finding the rows of a viewport costs O(log n + visible). Code blocks are highlighted with
// chroma on the goroutine of the Highlighter the application gives its views, once per
// finished block (cached by language and content, for every view), and only when they are
// first on screen; until then, and while a block streams, it is plain. Wake tells the
// drawer when a highlighting is ready.
package convo
