package convo

import (
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Options configure a View.
type Options struct {
	Labels Labels
	// Speaker returns the icon and the title an agent's label shows, from the configuration;
	// nil, or an empty title, shows the agent's name.
	Speaker func(author string) (icon, title string)
	// ASCII draws plan marks and the tool call mark with ASCII ("[ ]", "[~]", "[x]", "*")
	// for terminals without those symbols.
	ASCII bool
	// Wake asks for a redraw, from any goroutine, without blocking (the screen's merged
	// redraw request): the view calls it when a code block's highlighting is ready, and while
	// it still re-wraps entries after a resize.
	Wake func()
	// Highlighter highlights the view's finished code blocks and keeps the results: the
	// application's, shared by all its views. Nil gives the view one of its own.
	Highlighter *Highlighter
}

// withDefaults fills what the caller left empty, in English.
func (o Options) withDefaults() Options {
	l, en := &o.Labels, LabelsFor(i18n.English)
	if l.You == "" {
		l.You = en.You
	}
	if l.Thought == "" {
		l.Thought = en.Thought
	}
	if l.Dropped == nil {
		l.Dropped = en.Dropped
	}
	if l.ToolStatus == nil {
		l.ToolStatus = func(s string) string { return s }
	}
	if l.ToolKind == nil {
		l.ToolKind = func(s string) string { return s }
	}
	if l.NotFinished == "" {
		l.NotFinished = en.NotFinished
	}
	if l.Interrupted == "" {
		l.Interrupted = en.Interrupted
	}
	if l.MoreLocations == nil {
		l.MoreLocations = en.MoreLocations
	}
	if l.Terminal == nil {
		l.Terminal = en.Terminal
	}
	if l.TerminalState == nil {
		l.TerminalState = en.TerminalState
	}
	if o.Speaker == nil {
		o.Speaker = func(string) (string, string) { return "", "" }
	}
	if o.Highlighter == nil {
		o.Highlighter = NewHighlighter(HighlighterOptions{})
	}
	return o
}

// groupDigits writes n with a comma every three digits: 12,345.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// The marks of plans and tool calls, and their ASCII stand-ins.
type marks struct {
	pending, progress, completed, tool, dash string
	location, command                        string // before a tool call's file, and its command
}

var (
	unicodeMarks = marks{"☐", "◐", "☑", "⚙", " — ", "→", "$"}
	asciiMarks   = marks{"[ ]", "[~]", "[x]", "*", " - ", "->", "$"}
)

func (o *Options) marks() *marks {
	if o.ASCII {
		return &asciiMarks
	}
	return &unicodeMarks
}
