// Package markdown turns the text of a conversation entry into display lines: Markdown
// (CommonMark with GitHub's tables, task lists and strikethrough, parsed by goldmark) drawn
// for a terminal. It knows nothing of tcell or of conversations: a line is a list of spans,
// each with a class name (see class.go) and, for a link, its address.
//
// Streaming stays cheap. A State reads an entry's text as it grows: the text is cut into
// segments at block boundaries outside fenced code (a line that starts at the left margin
// after a blank line, an ATX heading, a fence), each segment rendered once when the next
// one starts and then kept. Only the last, still-open segment is parsed again, and only
// when one of its lines is complete (blank lines after it are drawn blank without a parse
// when they cannot change it); the line still arriving is shown as it is written until its
// end comes, and so is a last line that may be a table's header until the next one. Fenced code blocks are not given to goldmark: their lines are committed one
// by one as they come, so a long code block streams at the cost of its new lines, and the
// caller highlights them (the fence lines become a thin header with the language). A
// caller that keeps the lines it read calls Forget: the state then holds its open segment
// only, not every line of the text a second time.
//
// Bounds, so that hostile text renders in bounded time: a segment is cut after
// maxSegLines lines or maxSegBytes bytes even without a boundary, containers deeper than
// maxDepth are drawn at that depth, lines nested deeper than maxNest quote or list markers
// are shown as written rather than parsed, a table wider than the width allows is shown as
// its source, and a link's address keeps no control character.
//
// Every line keeps the source it stands for (Line.Raw), so a copy gives back the Markdown
// as it was written.
package markdown
