package app

import (
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// What the windows of this issue show, as lines: pure functions of the configuration, the
// history and the agents' states, so that they are tested without a screen. The
// conversations replace the channel and agent views in later issues.

// agentStates is the last states the agents reported, by name.
type agentStates struct {
	byName     map[string]runtime.AgentState
	running    int
	maxRunning int
}

func statesOf(ev runtime.Event) agentStates {
	s := agentStates{byName: make(map[string]runtime.AgentState, len(ev.States)), running: ev.Running, maxRunning: ev.MaxRunning}
	for _, st := range ev.States {
		s.byName[st.Name] = st
	}
	return s
}

// agentLabel is how an agent is named on screen: its icon and title.
func agentLabel(a config.Agent) string {
	title := a.Title
	if title == "" {
		title = a.Name
	}
	if a.Icon != "" {
		title = a.Icon + " " + title
	}
	return safetext.Line(title)
}

// commandLine is the agent's command as a shell would take it: the program found (or as
// written), then its arguments, each quoted when it needs to be, with the values that look
// like secrets masked (config.MaskSecrets).
func commandLine(a config.Agent) string {
	prog := a.CommandPath
	if prog == "" {
		prog = a.Command
	}
	return safetext.Line(config.CommandLine(append([]string{prog}, a.Args...)))
}

// runtimeText names where an agent runs: local, or its container or sandbox.
func runtimeText(a config.Agent) string {
	switch a.Runtime.Type {
	case "container":
		return "container " + safetext.Line(a.Runtime.Container)
	case "sbx":
		return "sbx " + safetext.Line(a.Runtime.Sandbox)
	}
	return "local"
}

// stateText is an agent's state in words, with its process when one runs.
func stateText(lang i18n.Lang, st runtime.AgentState) string {
	s := stateName(lang, st.State)
	if st.Pid > 0 {
		s = catalogue.Text(lang, msgStatePid, s, st.Pid)
	}
	return s
}

// stateLines are the state line and, for an agent in error, how it ended and the last
// lines of its error output (untrusted: cleaned).
func stateLines(lang i18n.Lang, st runtime.AgentState, indent string) []window.TextLine {
	class := window.ClassText
	if st.State == runtime.Error {
		class = window.ClassError
	}
	lines := []window.TextLine{{Text: indent + catalogue.Text(lang, msgState, stateText(lang, st)), Class: class}}
	if st.State != runtime.Error {
		return lines
	}
	switch {
	case st.Failure != nil:
		// Why the start failed; the process's exit, caused by the stop that followed,
		// says nothing more.
		why := strings.Split(agentstack.DescribeError(st.Failure, lang), "\n")
		lines = append(lines, window.TextLine{Text: indent + errCatalogue.Text(lang, errmsgFailure, why[0]), Class: window.ClassError})
		for _, l := range why[1:] {
			lines = append(lines, window.TextLine{Text: indent + l, Class: window.ClassError})
		}
	case st.Exit != nil:
		lines = append(lines, window.TextLine{Text: indent + catalogue.Text(lang, msgExit, st.Exit.String()), Class: window.ClassError})
	}
	if len(st.StderrTail) > 0 {
		lines = append(lines, window.TextLine{Text: indent + catalogue.Text(lang, msgStderrTail), Class: window.ClassComment})
		for _, l := range st.StderrTail {
			lines = append(lines, window.TextLine{Text: indent + "  " + safetext.Line(l), Class: window.ClassComment})
		}
	}
	return lines
}

// channelLines is a channel window's content: its name, its description, and its members
// with their icon and state.
func channelLines(lang i18n.Lang, ch store.Channel, cfg *config.Config, states agentStates) []window.TextLine {
	lines := []window.TextLine{{Text: "#" + safetext.Line(ch.Name), Class: window.ClassKeyword}}
	if ch.Description != "" {
		lines = append(lines, window.TextLine{Text: safetext.Line(ch.Description), Class: window.ClassComment})
	}
	lines = append(lines, window.TextLine{}, window.TextLine{Text: catalogue.Text(lang, msgMembers), Class: window.ClassType})
	if len(ch.Members) == 0 {
		lines = append(lines, window.TextLine{Text: "  " + catalogue.Text(lang, msgNoMembers), Class: window.ClassComment})
	}
	for _, name := range ch.Members {
		a := cfg.Agent(name)
		if a == nil {
			lines = append(lines, window.TextLine{Text: "  @" + safetext.Line(name) + " — " + catalogue.Text(lang, msgNotConfigured), Class: window.ClassWarning})
			continue
		}
		st := states.byName[name]
		class := window.ClassText
		if st.State == runtime.Error {
			class = window.ClassError
		}
		lines = append(lines, window.TextLine{Text: "  " + agentLabel(*a) + "  @" + a.Name + " — " + stateText(lang, st), Class: class})
	}
	return lines
}

// statusLines is the Agent status window's content: what was loaded (the configuration,
// the project agents file), how many agents run, then each agent with its command line
// and state, followed by what more, when given, returns of it.
func statusLines(lang i18n.Lang, cur loaded, cfg *config.Config, dir string, states agentStates, more func(config.Agent) []window.TextLine) []window.TextLine {
	lines := []window.TextLine{{Text: catalogue.Text(lang, msgStatusConfig, safetext.Line(cfg.Path))}}
	if cur.project != "" {
		lines = append(lines, window.TextLine{Text: catalogue.Text(lang, msgStatusProject, safetext.Line(cur.project))})
		if cur.refused != nil {
			lines = append(lines, window.TextLine{Text: "  " + errCatalogue.Text(lang, errmsgProjectRefused), Class: window.ClassError})
			for _, p := range cur.refused {
				lines = append(lines, window.TextLine{Text: "    " + p, Class: window.ClassError})
			}
		}
	} else {
		lines = append(lines, window.TextLine{Text: catalogue.Text(lang, msgStatusNoProject, safetext.Line(filepath.Join(dir, filepath.Dir(config.ProjectFile))))})
	}
	if !cur.at.IsZero() {
		lines = append(lines, window.TextLine{Text: catalogue.Text(lang, msgStatusLoadedAt, cur.at.Format("15:04:05")), Class: window.ClassComment})
	}
	lines = append(lines, warningLines(lang, cur)...)
	maxRunning := states.maxRunning
	if maxRunning == 0 {
		maxRunning = cfg.Limits.MaxRunningAgents
	}
	lines = append(lines, window.TextLine{Text: catalogue.Text(lang, msgStatusRunning, states.running, maxRunning)}, window.TextLine{})
	if len(cfg.Agents) == 0 {
		return append(lines, window.TextLine{Text: catalogue.Text(lang, msgStatusNoAgents), Class: window.ClassComment})
	}
	lines = append(lines, window.TextLine{Text: catalogue.Text(lang, msgStatusAgentsHeading), Class: window.ClassType})
	for _, a := range cfg.Agents {
		lines = append(lines,
			window.TextLine{Text: agentLabel(a) + "  @" + a.Name, Class: window.ClassKeyword},
			window.TextLine{Text: "  " + catalogue.Text(lang, msgCommand, commandLine(a))},
		)
		if a.Source != "" && a.Source != cfg.Path {
			lines = append(lines, window.TextLine{Text: "  " + safetext.Line(a.Source), Class: window.ClassComment})
		}
		lines = append(lines, stateLines(lang, states.byName[a.Name], "  ")...)
		if more != nil {
			lines = append(lines, more(a)...)
		}
	}
	return lines
}

// warningLines lists the warnings of the load cur under a heading (none when it has none),
// so that those a reload's status bar only counts can be read whole.
func warningLines(lang i18n.Lang, cur loaded) []window.TextLine {
	var lines []window.TextLine
	for i, d := range cur.diags {
		if !d.Warning || i >= len(cur.problems) {
			continue
		}
		if lines == nil {
			lines = append(lines, window.TextLine{Text: catalogue.Text(lang, msgStatusWarnings), Class: window.ClassWarning})
		}
		lines = append(lines, window.TextLine{Text: "  " + cur.problems[i], Class: window.ClassWarning})
	}
	return lines
}

// errorsLines is the errors window's content: what happened, then each problem with its
// line (warnings too, marked), then the summary.
func errorsLines(lang i18n.Lang, intro string, l loaded) []window.TextLine {
	lines := []window.TextLine{{Text: intro}, {}}
	for i, d := range l.diags {
		class := window.ClassError
		if d.Warning {
			class = window.ClassWarning
		}
		lines = append(lines, window.TextLine{Text: l.problems[i], Class: class})
	}
	return append(lines, window.TextLine{}, window.TextLine{Text: config.Summary(lang, l.diags), Class: window.ClassComment})
}
