package markdown

// The class names spans carry. The drawer maps them to the theme's styles; a theme that
// lacks one draws it as ClassText. Text in no particular markup takes the base class the
// caller gives (plain text, or a thought's).
const (
	ClassText     = "text"
	ClassHeading  = "markup.heading"
	ClassStrong   = "markup.strong"
	ClassEmphasis = "markup.emphasis"
	ClassStrike   = "markup.strike"
	ClassCode     = "markup.code"   // inline code, and code inside a list or a quote
	ClassLink     = "markup.link"   // a link's text, an image's description
	ClassMarker   = "markup.marker" // bullets, numbers, task boxes, quote bars, table borders, rules, code headers
)
