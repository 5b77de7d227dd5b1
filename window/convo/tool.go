package convo

import (
	"strings"
	"unsafe"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// maxShownLocations is the most locations a tool call shows; the others are counted.
const maxShownLocations = 10

// renderTool makes a tool call's lines: a header "⚙ title — kind, status" (in the error
// colour when it failed, in the warning colour when its turn ended before it finished),
// then what it does (chat.Action: the files it works on, an execute call's command), then
// its output as one region: each content piece's text, each diff as a unified diff, each
// terminal as the line that names it.
func (ev *entryView) renderTool(e chat.Entry, rc *renderCtx) {
	t := e.Tool
	if t == nil {
		t = &chat.ToolCall{}
	}
	m := rc.opts.marks()
	labels := &rc.opts.Labels
	title := t.Title
	if title == "" {
		title = t.ID
	}
	act := t.Action()
	var details []string
	if act.Kind != "" {
		details = append(details, orAsSent(labels.ToolKind(act.Kind), act.Kind))
	}
	cls := ClassType
	switch {
	case e.Unfinished():
		details = append(details, labels.NotFinished)
		cls = ClassWarning
	case t.Status != "":
		details = append(details, orAsSent(labels.ToolStatus(t.Status), t.Status))
		if t.Status == "failed" {
			cls = ClassError
		}
	}
	text := m.tool + " " + title
	if len(details) > 0 {
		text += m.dash + strings.Join(details, ", ")
	}
	text = displayText(safetext.Line(text), 0)
	ev.lines = append(ev.lines, line{text: text, cls: classNamed(cls), kind: RowToolHeader, block: -1,
		region: ev.nextRegion(), indent: 2, cont: 2, word: true})
	ev.renderAction(act, rc)
	region := ev.nextRegion()
	out := func(text, raw, cls string) {
		ev.lines = append(ev.lines, line{text: text, cls: classNamed(cls), kind: RowToolOutput, block: -1,
			region: region, indent: 4, cont: 2}.with(raw, nil))
	}
	var memos []diffMemo
	for _, p := range t.Content {
		switch p.Type {
		case "content":
			for _, s := range splitLines(p.Text) {
				out(displayText(s, 0), s, ClassText)
			}
		case "diff":
			d := ev.diffOf(p)
			memos = append(memos, d)
			for _, dl := range d.lines {
				switch dl.op {
				case 'h':
					c := ClassKeyword
					if len(dl.text) > 1 && dl.text[0] == '@' {
						c = ClassComment
					}
					out(displayText(dl.text, 0), dl.text, c)
				default:
					raw := string(dl.op) + dl.text
					c := ClassText
					switch dl.op {
					case '-':
						c = ClassRemoved
					case '+':
						c = ClassAdded
					}
					out(displayText(raw, 0), raw, c)
				}
			}
		case "terminal":
			s := rc.opts.Labels.Terminal(p.TerminalID)
			if p.Terminal != nil {
				s += m.dash + rc.opts.Labels.TerminalState(*p.Terminal)
			}
			s = displayText(safetext.Line(s), 0)
			out(s, s, ClassComment)
			if p.Terminal != nil {
				for _, l := range splitLines(p.Terminal.Output) {
					out(displayText(l, 0), l, ClassText)
				}
			}
		}
	}
	ev.diffs = memos
}

// renderAction makes the lines of what a tool call does, one region: a line per location
// (the first maxShownLocations, then how many more), then an execute call's command.
func (ev *entryView) renderAction(act chat.Action, rc *renderCtx) {
	if len(act.Locations) == 0 && act.Command == "" {
		return
	}
	m := rc.opts.marks()
	region := ev.nextRegion()
	add := func(mark, raw, cls string) {
		raw = safetext.Line(raw)
		l := line{text: displayText(raw, 0), cls: classNamed(cls), kind: RowToolAction, block: -1, region: region, indent: 4}
		var runs []run
		if mark != "" {
			l.text = mark + " " + l.text
			l.cont = int16(textWidth(mark) + 1)
			runs = []run{{end: int32(len(mark)), cls: classNamed(ClassType)}, {end: int32(len(l.text)), cls: l.cls}}
		}
		ev.lines = append(ev.lines, l.with(raw, runs))
	}
	for i, l := range act.Locations {
		if i == maxShownLocations {
			add("", rc.opts.Labels.MoreLocations(len(act.Locations)-i), ClassComment)
			break
		}
		add(m.location, l.String(), ClassString)
	}
	if act.Command != "" {
		add(m.command, act.Command, ClassText)
	}
}

// orAsSent is a label, or what the agent sent when the label has none for it.
func orAsSent(label, sent string) string {
	if label == "" {
		return sent
	}
	return label
}

// diffMemo is a diff the entry showed, kept while its texts stay the same: a tool call
// update that changes the status only does not compute the diff again.
type diffMemo struct {
	path     string
	old, new string
	hasOld   bool
	lines    []diffLine
}

// sameString reports whether a and b are the same string in memory: the chat model never
// modifies a tool call's content once published, so a piece carried over by an update
// keeps its strings.
func sameString(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b))
}

func (ev *entryView) diffOf(p chat.ToolContent) diffMemo {
	for _, d := range ev.diffs {
		if d.path == p.Path && d.hasOld == (p.OldText != nil) && sameString(d.new, p.NewText) &&
			(p.OldText == nil || sameString(d.old, *p.OldText)) {
			return d
		}
	}
	d := diffMemo{path: p.Path, new: p.NewText, hasOld: p.OldText != nil}
	if p.OldText != nil {
		d.old = *p.OldText
	}
	d.lines = unifiedDiff(p.Path, p.OldText, p.NewText)
	return d
}

// renderPlan makes a plan's lines: one per entry, with its state's mark.
func (ev *entryView) renderPlan(e chat.Entry, rc *renderCtx) {
	m := rc.opts.marks()
	region := ev.nextRegion()
	for _, p := range e.Plan {
		mark, cls := m.pending, ClassText
		switch p.Status {
		case "in_progress":
			mark = m.progress
		case "completed":
			mark, cls = m.completed, ClassComment
		}
		content := displayText(safetext.Line(p.Content), 0)
		text := mark + " " + content
		ev.lines = append(ev.lines, line{text: text, kind: RowPlan, block: -1, region: region,
			indent: 2, cont: int16(textWidth(mark) + 1), word: true}.with(text,
			[]run{{end: int32(len(mark)), cls: classNamed(ClassType)}, {end: int32(len(text)), cls: classNamed(cls)}}))
	}
}

// renderNotice makes a notice's lines: its text in the error colour, one region.
func (ev *entryView) renderNotice(e chat.Entry) {
	region := ev.nextRegion()
	for _, s := range splitLines(e.Text) {
		t := displayText(s, 0)
		ev.lines = append(ev.lines, line{text: t, cls: classNamed(ClassError), kind: RowNotice, block: -1,
			region: region, cont: 2, word: true}.with(s, nil))
	}
}
