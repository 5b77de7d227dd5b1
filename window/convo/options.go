package convo

import (
	"strconv"
	"strings"
)

// Labels are the words the view writes itself, in the user's language: the caller takes
// them from the UI catalogue, or from LabelsFor. An empty field gets the English default.
type Labels struct {
	// You labels the user's messages: "You", "Vous".
	You string
	// Thought labels an agent's thought: "Thinking", "Réflexion".
	Thought string
	// Dropped says how many bytes an entry lost to the 1 MiB cap: "… 12,345 bytes dropped",
	// "… 12 345 octets perdus".
	Dropped func(bytes int64) string
	// ToolStatus names a tool call's status (pending, in_progress, completed, failed) in the
	// user's language; the status as the agent sent it when nil or when it returns "".
	ToolStatus func(status string) string
	// Terminal is the line that stands for a tool call's terminal output: "terminal t-1".
	Terminal func(id string) string
}

// LabelsFor returns the labels in a language: "fr" for French, English for anything else.
// The UI catalogue may use them as they are or replace any of them.
func LabelsFor(lang string) Labels {
	if lang == "fr" {
		statuses := map[string]string{"pending": "en attente", "in_progress": "en cours", "completed": "terminé", "failed": "échoué"}
		return Labels{
			You:     "Vous",
			Thought: "Réflexion",
			Dropped: func(n int64) string {
				return "… " + strings.ReplaceAll(groupDigits(n), ",", " ") + " octets perdus"
			},
			ToolStatus: func(s string) string { return statuses[s] },
			Terminal:   func(id string) string { return "terminal " + id },
		}
	}
	statuses := map[string]string{"pending": "pending", "in_progress": "in progress", "completed": "completed", "failed": "failed"}
	return Labels{
		You:        "You",
		Thought:    "Thinking",
		Dropped:    func(n int64) string { return "… " + groupDigits(n) + " bytes dropped" },
		ToolStatus: func(s string) string { return statuses[s] },
		Terminal:   func(id string) string { return "terminal " + id },
	}
}

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
	l, en := &o.Labels, LabelsFor("en")
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
	if l.Terminal == nil {
		l.Terminal = en.Terminal
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
}

var (
	unicodeMarks = marks{"☐", "◐", "☑", "⚙", " — "}
	asciiMarks   = marks{"[ ]", "[~]", "[x]", "*", " - "}
)

func (o *Options) marks() *marks {
	if o.ASCII {
		return &asciiMarks
	}
	return &unicodeMarks
}
