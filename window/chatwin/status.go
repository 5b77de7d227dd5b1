package chatwin

import (
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// StatusLines returns the part of Agent status about one agent's conversation and
// connection: the commands it announced with their descriptions, the updates it sent
// that were ignored (with the last one and its error), and the login it asks for. conv may
// be nil (no window on the agent yet): the commands are then unknown.
func StatusLines(lang i18n.Lang, conv *chat.Conversation, agent string, conn chat.ConnStatus) []window.TextLine {
	line := func(text string, c window.Class) window.TextLine { return window.TextLine{Text: text, Class: c} }
	var out []window.TextLine
	out = append(out, line(catalogue.Text(lang, tStatusCommands), window.ClassKeyword))
	var cmds []chat.Command
	var stats chat.Stats
	if conv != nil {
		cmds, stats = conv.Commands(agent), conv.Stats(agent)
	}
	if len(cmds) == 0 {
		out = append(out, line("  "+catalogue.Text(lang, tStatusNoCommands), window.ClassComment))
	}
	for _, c := range cmds {
		text := "  /" + c.Name
		if c.HasInput && c.InputHint != "" {
			text += " <" + c.InputHint + ">"
		}
		if c.Description != "" {
			text += " — " + c.Description
		}
		out = append(out, line(text, window.ClassText))
	}

	nothing := true
	if n := conn.UnknownUpdates; n > 0 {
		nothing = false
		out = append(out, line(catalogue.Text(lang, tStatusUnknownUpdates, n), window.ClassWarning))
		kind, err := safetext.Line(conn.LastUnknownKind), safetext.Line(conn.LastUnknownError)
		switch {
		case kind != "" && err != "":
			out = append(out, line("  "+catalogue.Text(lang, tStatusLastError, kind, err), window.ClassText))
		case kind != "" || err != "":
			out = append(out, line("  "+catalogue.Text(lang, tStatusLast, kind+err), window.ClassText))
		}
	}
	if n := stats.Ignored; n > 0 {
		nothing = false
		out = append(out, line(catalogue.Text(lang, tStatusIgnored, n), window.ClassWarning))
		if k := safetext.Line(stats.LastIgnored); k != "" {
			out = append(out, line("  "+catalogue.Text(lang, tStatusLast, k), window.ClassText))
		}
	}
	if n := stats.UnknownToolUpdates; n > 0 {
		nothing = false
		out = append(out, line(catalogue.Text(lang, tStatusUnknownTools, n), window.ClassWarning))
	}
	if n := stats.DroppedEntries; n > 0 {
		nothing = false
		out = append(out, line(catalogue.Text(lang, tStatusDropped, n), window.ClassWarning))
	}
	if conn.Malformed > 0 || conn.Oversize > 0 {
		nothing = false
		out = append(out, line(catalogue.Text(lang, tStatusBadLines, conn.Malformed, conn.Oversize), window.ClassWarning))
	}
	if n := conn.Ignored; n > 0 {
		nothing = false
		out = append(out, line(catalogue.Text(lang, tStatusOtherIgnored, n), window.ClassText))
		if r := safetext.Line(conn.LastIgnored); r != "" {
			out = append(out, line("  "+catalogue.Text(lang, tStatusLast, r), window.ClassText))
		}
	}
	if nothing {
		out = append(out, line(catalogue.Text(lang, tStatusNothingIgnored), window.ClassComment))
	}

	if len(conn.AuthMethods) > 0 {
		out = append(out, line(catalogue.Text(lang, tStatusAuth), window.ClassError))
		for _, m := range conn.AuthMethods {
			text := "  " + safetext.Line(m.Name)
			if d := safetext.Line(m.Description); d != "" {
				text += " — " + d
			}
			out = append(out, line(text, window.ClassText))
		}
	}
	return out
}
