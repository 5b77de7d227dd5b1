package app

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// This file writes a conversation as Markdown (Sidekicks ▸ Export conversation…). The
// shape, documented in docs/reference/export.md:
//
//	# #channel (or the agent's title)
//
//	Exported from Sidekicks on 2026-12-01 20:30.
//
//	## You · 2026-12-01 14:05:09
//
//	the message, as typed
//
//	## Alice · 2026-12-01 14:05:12
//
//	the reply, its Markdown and code fences as the agent wrote them
//
// A thought is a block quote under "## Alice · thought · time"; a tool call, under
// "## Alice · tool call · time", is its title in bold with its kind and status, the command
// it runs in code, the files it touches as a list, and its output in fenced blocks (a diff as
// a diff); a plan is a task list; a notice of Sidekicks is in italics. Each fence is longer
// than any run of backquotes in what it holds, so that nothing the agent wrote can close it.

// markdownExport writes entries to a Markdown document.
type markdownExport struct {
	w    *bufio.Writer
	lang i18n.Lang
	// name gives an agent's title from its name.
	name func(agent string) string
	n    int // entries written
}

// newMarkdownExport starts a document titled title, exported at now.
func newMarkdownExport(w io.Writer, lang i18n.Lang, title string, now time.Time, name func(string) string) *markdownExport {
	m := &markdownExport{w: bufio.NewWriter(w), lang: lang, name: name}
	fmt.Fprintf(m.w, "# %s\n\n%s\n\n", escapeInline(title), searchCatalogue.Text(lang, fmsgExportHeader, now.Local().Format("2006-01-02 15:04")))
	return m
}

// finish writes what is buffered.
func (m *markdownExport) finish() error { return m.w.Flush() }

// entry writes one entry: a heading, then its content.
func (m *markdownExport) entry(e chat.Entry) error {
	m.n++
	t := func(k fmsg, args ...any) string { return searchCatalogue.Text(m.lang, k, args...) }
	who := "Sidekicks"
	switch {
	case e.Kind == chat.KindUser:
		who = t(fmsgYou)
	case e.Author != "":
		who = m.name(e.Author)
	}
	head := []string{escapeInline(who)}
	switch e.Kind {
	case chat.KindThought:
		head = append(head, t(fmsgThought))
	case chat.KindToolCall:
		head = append(head, t(fmsgToolCall))
	case chat.KindPlan:
		head = append(head, t(fmsgPlan))
	case chat.KindNotice:
		head = append(head, t(fmsgNotice))
	}
	head = append(head, e.Created.Local().Format("2006-01-02 15:04:05"))
	fmt.Fprintf(m.w, "## %s\n\n", strings.Join(head, " · "))
	switch e.Kind {
	case chat.KindThought:
		m.quote(e.Text)
	case chat.KindToolCall:
		m.tool(e.Tool)
	case chat.KindPlan:
		m.plan(e.Plan)
	case chat.KindNotice:
		m.para("*" + escapeInline(oneLine(e.Text)) + "*")
	default:
		m.para(containBody(e.Text))
	}
	if e.Lost > 0 {
		m.para("*" + t(fmsgLost, e.Lost) + "*")
	}
	if e.Interrupted || !e.Done {
		m.para("*" + t(fmsgInterrupted) + "*")
	}
	return nil
}

// para writes a block of text followed by a blank line.
func (m *markdownExport) para(s string) {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return
	}
	m.w.WriteString(s)
	m.w.WriteString("\n\n")
}

// quote writes text as a block quote.
func (m *markdownExport) quote(s string) {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return
	}
	for _, l := range strings.Split(s, "\n") {
		m.w.WriteString(strings.TrimRight("> "+l, " "))
		m.w.WriteByte('\n')
	}
	m.w.WriteByte('\n')
}

// fence writes text in a fenced code block of a language ("" for none), with a fence
// longer than any run of backquotes inside.
func (m *markdownExport) fence(lang, s string) {
	f := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	m.w.WriteString(f + lang + "\n")
	m.w.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		m.w.WriteByte('\n')
	}
	m.w.WriteString(f + "\n\n")
}

// tool writes a tool call: its title, kind and status, command, files and output.
func (m *markdownExport) tool(tc *chat.ToolCall) {
	if tc == nil {
		return
	}
	line := "**" + escapeInline(oneLine(tc.Title)) + "**"
	var about []string
	for _, a := range []string{tc.Kind, tc.Status} {
		if a != "" {
			about = append(about, escapeInline(a))
		}
	}
	if len(about) > 0 {
		line += " (" + strings.Join(about, ", ") + ")"
	}
	m.para(line)
	if tc.Command != "" {
		m.fence("sh", tc.Command)
	}
	if len(tc.Locations) > 0 {
		for _, l := range tc.Locations {
			where := l.Path
			if l.Line > 0 {
				where += fmt.Sprintf(":%d", l.Line)
			}
			m.w.WriteString("- " + codeSpan(where) + "\n")
		}
		m.w.WriteByte('\n')
	}
	for _, c := range tc.Content {
		switch c.Type {
		case "diff":
			m.para(codeSpan(c.Path) + m.newFile(c.OldText))
			m.fence("diff", unifiedDiff(c.OldText, c.NewText))
		case "terminal":
			m.para("*" + searchCatalogue.Text(m.lang, fmsgTerminal, codeSpan(c.TerminalID)) + "*")
		default:
			if c.Text != "" {
				m.fence("", c.Text)
			}
		}
	}
}

// newFile says " (new file)" for a diff that has no old text.
func (m *markdownExport) newFile(old *string) string {
	if old != nil {
		return ""
	}
	return " " + searchCatalogue.Text(m.lang, fmsgNewFile)
}

// plan writes a plan as a task list.
func (m *markdownExport) plan(p []chat.PlanEntry) {
	for _, e := range p {
		box := "[ ]"
		if e.Status == "completed" {
			box = "[x]"
		}
		line := "- " + box + " " + escapeInline(oneLine(e.Content))
		if e.Status == "in_progress" {
			line += " " + searchCatalogue.Text(m.lang, fmsgInProgress)
		}
		m.w.WriteString(line + "\n")
	}
	if len(p) > 0 {
		m.w.WriteByte('\n')
	}
}

// unifiedDiff writes a diff piece as the old lines removed and the new lines added: the
// whole of each (the tool call holds the texts, not hunks).
func unifiedDiff(old *string, new string) string {
	var b strings.Builder
	if old != nil && *old != "" {
		for _, l := range strings.Split(strings.TrimSuffix(*old, "\n"), "\n") {
			b.WriteString("-" + l + "\n")
		}
	}
	if new != "" {
		for _, l := range strings.Split(strings.TrimSuffix(new, "\n"), "\n") {
			b.WriteString("+" + l + "\n")
		}
	}
	return b.String()
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// codeSpan writes s as inline code, with enough backquotes around it.
func codeSpan(s string) string {
	s = oneLine(s)
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

// oneLine puts s on one line: each line break becomes a space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// escapeInline escapes the characters that would make plain text (a title, a name) read
// as Markdown; a # is escaped at the end only, where a heading would drop it.
func escapeInline(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	out := b.String()
	if strings.HasSuffix(out, "#") {
		out = out[:len(out)-1] + "\\#"
	}
	return out
}
