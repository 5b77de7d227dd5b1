package wizard

import (
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// fieldID is one field of the form, in the order the form shows them.
type fieldID int

const (
	fName fieldID = iota
	fTitle
	fIcon
	fDescription
	fFolder
	fWhere
	fContainer
	fSandbox
	fProgram
	fArguments
	fConfigFile
	fLifecycleFolder
	fCreate
	fStop
	fRemove
	fieldCount
	noField fieldID = -1
)

// fieldLabels are the fields' names, as the specification's table calls them.
var fieldLabels = [fieldCount]text{
	fName:            tName,
	fTitle:           tDisplayName,
	fIcon:            tIcon,
	fDescription:     tDescription,
	fFolder:          tFolder,
	fWhere:           tWhere,
	fContainer:       tContainerName,
	fSandbox:         tSandboxName,
	fProgram:         tProgram,
	fArguments:       tArguments,
	fConfigFile:      tConfigFile,
	fLifecycleFolder: tLifecycleFolder,
	fCreate:          tCreate,
	fStop:            tStop,
	fRemove:          tRemove,
}

// places are the choices of "where it runs".
var places = []struct {
	where string
	label text
}{
	{config.WhereLocal, tLocal},
	{config.WhereContainer, tContainer},
	{config.WhereSbx, tSbx},
}

// minInputWidth is the narrowest a field gets: the label column gives way first.
const minInputWidth = 24

// maxProblemRows bounds the rows the problems take under the fields; the form keeps
// room for at least one field.
const maxProblemRows = 8

// form is the first step of the wizard: the fields, the problems found with them, and
// the buttons Preview and Cancel.
type form struct {
	lang     i18n.Lang
	inputs   [fieldCount]*window.Input // nil for fWhere, a choice
	where    int                       // index in places
	field    fieldID                   // the focused field, when button < 0
	button   int                       // the focused button, -1 when a field has the focus
	top      int                       // the first field row shown
	problems []string                  // messages, shown under the fields
	bad      fieldID                   // the field the first problem is about
	status   string                    // "Checking…" while the preview is computed
	buttons  buttonRow
	rows     int // field rows shown at the last frame
	labelW   int // the label column's width at the last frame
}

func newForm(lang i18n.Lang) *form {
	f := &form{lang: lang, button: -1, bad: noField,
		buttons: buttonRow{labels: []string{catalogue.Text(lang, tPreview), window.NewLabels(lang).T(window.LabelCancel)}}}
	for id := range fieldCount {
		if id != fWhere {
			f.inputs[id] = window.NewInput()
		}
	}
	return f
}

// visible reports whether a field is shown for the place chosen: the container's name
// for a container, the sandbox's name and the lifecycle for sbx (the specification's
// table offers the lifecycle commands for sbx only).
func (f *form) visible(id fieldID) bool {
	switch id {
	case fContainer:
		return places[f.where].where == config.WhereContainer
	case fSandbox, fLifecycleFolder, fCreate, fStop, fRemove:
		return places[f.where].where == config.WhereSbx
	}
	return true
}

// shown returns the visible fields in order.
func (f *form) shown() []fieldID {
	ids := make([]fieldID, 0, fieldCount)
	for id := range fieldCount {
		if f.visible(id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// input returns what the visible fields hold, as the config package takes it.
func (f *form) input() config.WizardInput {
	text := func(id fieldID) string {
		if !f.visible(id) {
			return ""
		}
		return f.inputs[id].Text()
	}
	return config.WizardInput{
		Name: text(fName), Title: text(fTitle), Icon: text(fIcon), Description: text(fDescription),
		Folder: text(fFolder), Where: places[f.where].where,
		Container: text(fContainer), Sandbox: text(fSandbox),
		Program: text(fProgram), Arguments: text(fArguments), AgentConfigFile: text(fConfigFile),
		LifecycleFolder: text(fLifecycleFolder), CreateCommand: text(fCreate),
		StopCommand: text(fStop), RemoveCommand: text(fRemove),
	}
}

// setProblems shows messages under the fields and moves the focus to the field at fault.
func (f *form) setProblems(messages []string, field fieldID) {
	f.problems, f.bad = messages, field
	if field != noField && f.visible(field) {
		f.field, f.button = field, -1
	}
}

// problemRows wraps the problems (or the status) for a width.
func (f *form) problemRows(width int) []string {
	if f.status != "" {
		return []string{f.status}
	}
	var rows []string
	for _, p := range f.problems {
		rows = append(rows, window.Wrap(p, width)...)
	}
	if len(rows) > maxProblemRows {
		rows = append(rows[:maxProblemRows-1], "…")
	}
	return rows
}

// labelWidth is the label column: the longest label of every field, shown or not, so
// that the column does not move when the place changes, leaving the fields
// minInputWidth.
func (f *form) labelWidth(width int) int {
	w := 0
	for _, lb := range fieldLabels {
		w = max(w, window.TextWidth(catalogue.Text(f.lang, lb)))
	}
	return max(min(w+2, width-minInputWidth), 0)
}

func (f *form) size(maxW, maxH int) (int, int) {
	rows := len(f.shown()) + 2 // the fields, a blank row, the buttons
	if p := len(f.problemRows(maxW)); p > 0 {
		rows += p + 1
	}
	return maxW, min(rows, maxH)
}

func (f *form) draw(r window.Region) {
	W, H := r.Size()
	f.labelW = f.labelWidth(W)
	problems := f.problemRows(W)
	below := 2 // a blank row and the buttons
	if len(problems) > 0 {
		keep := max(min(len(problems), H-below-2), 0)
		problems = problems[:keep]
		if keep > 0 {
			below += keep + 1
		}
	}
	ids := f.shown()
	f.rows = max(H-below, 1)
	f.scrollToFocus(ids)
	for y := 0; y < f.rows; y++ {
		if i := f.top + y; i < len(ids) {
			f.drawField(r, y, ids[i], y == 0 && f.top > 0, y == f.rows-1 && i < len(ids)-1)
		} else {
			r.Line(y, "", window.ClassDialog)
		}
	}
	y := f.rows
	r.Line(y, "", window.ClassDialog)
	y++
	if len(problems) > 0 {
		class := window.ClassDialogError
		if f.status != "" {
			class = window.ClassDialog
		}
		for _, p := range problems {
			r.Line(y, p, class)
			y++
		}
		r.Line(y, "", window.ClassDialog)
		y++
	}
	for ; y < H-1; y++ {
		r.Line(y, "", window.ClassDialog)
	}
	f.buttons.draw(r, H-1, f.button)
}

// drawField draws one row: the label, then the field; more marks that rows are hidden
// above (up) or below (down).
func (f *form) drawField(r window.Region, y int, id fieldID, up, down bool) {
	W, _ := r.Size()
	label := window.Truncate(catalogue.Text(f.lang, fieldLabels[id]), f.labelW-2)
	class := window.ClassDialog
	if id == f.bad {
		class = window.ClassDialogError
	}
	mark := " "
	switch {
	case up:
		mark = "↑"
	case down:
		mark = "↓"
	}
	r.Sub(0, y, f.labelW, 1).Line(0, pad(label, f.labelW-1)+mark, class)
	cell := r.Sub(f.labelW, y, W-f.labelW, 1)
	focused := f.button < 0 && f.field == id
	if id == fWhere {
		c := window.ClassDialogInput
		if focused {
			c = window.ClassDialogButtonFocused
		}
		cell.Line(0, "◂ "+catalogue.Text(f.lang, places[f.where].label)+" ▸", c)
		return
	}
	in := f.inputs[id]
	in.Draw(cell, focused)
	if id == fConfigFile && in.Text() == "" && !focused {
		cell.Text(0, 0, "("+catalogue.Text(f.lang, tOptional)+")", window.ClassDialogInput)
	}
}

// scrollToFocus keeps the focused field in the rows shown.
func (f *form) scrollToFocus(ids []fieldID) {
	at := -1
	for i, id := range ids {
		if id == f.field {
			at = i
		}
	}
	if f.button >= 0 {
		at = len(ids) - 1
	}
	if at < 0 {
		f.top = max(min(f.top, len(ids)-f.rows), 0)
		return
	}
	f.top = window.ScrollToShow(f.top, at, f.rows, len(ids))
}
