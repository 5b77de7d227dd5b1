package window

import "strconv"

// ShowWindowList opens the list of windows (Alt-0): each with its number and title, and
// a mark for the ones waiting for the user (!) or with unread content (●). Choosing one
// focuses it.
func (a *App) ShowWindowList() {
	items := make([]ChoiceItem, len(a.windows))
	for i, w := range a.windows {
		it := ChoiceItem{Text: strconv.Itoa(i+1) + "  " + w.title}
		switch {
		case w.attention:
			it.Mark, it.MarkClass = "! "+a.T(LabelAttention), ClassDialogReject
		case w.unread:
			it.Mark, it.MarkClass = "● "+a.T(LabelUnread), ClassDialogAllow
		case w.Busy():
			it.Mark, it.MarkClass = a.T(LabelBusy), ClassDialog
		}
		items[i] = it
	}
	wins := a.Windows()
	a.Choose(Choice{Title: a.T(LabelWindowListTitle), Items: items, Selected: a.focus}, func(i int, ok bool) {
		if ok && !wins[i].closed {
			wins[i].Focus()
		}
	})
}

// builtinTexts are what the application says in the toolkit's own places.
type builtinTexts struct {
	desktop func() string // the empty desktop's text; nil for the toolkit's
}

// SetDesktopText sets what the desktop says while no window is open (where to start):
// text returns it in the App's language, at each frame it shows. nil gives back the
// toolkit's own "No window open."
func (a *App) SetDesktopText(text func() string) {
	a.builtin.desktop = text
	a.dirty.Store(true)
}

// keyRow is one row of the list of keys.
type keyRow struct {
	keys   string
	effect Label
}

// keyGroups is the list of keys that Help ▸ Keys shows; docs/reference/keys.md is the
// same list.
var keyGroups = []struct {
	title Label
	rows  []keyRow
}{
	{LabelKeysGlobal, []keyRow{
		{"F10", LabelKeyF10},
		{"Alt-letter", LabelKeyAltLetter},
		{"F6", LabelKeyF6},
		{"Shift-F6", LabelKeyShiftF6},
		{"Alt-1…Alt-9", LabelKeyAltDigit},
		{"Alt-0", LabelKeyAltZero},
		{"F5", LabelKeyF5},
		{"Alt-F3", LabelKeyAltF3},
		{"Ctrl-W", LabelKeyCtrlW},
		{"Alt-X", LabelKeyAltX},
		{"F1", LabelKeyF1},
		{"Mouse", LabelKeyMouse},
		{"Wheel", LabelKeyWheel},
	}},
	{LabelKeysMenus, []keyRow{
		{"↑ ↓ ← →", LabelKeyMenuArrows},
		{"Enter", LabelKeyMenuEnter},
		{"Esc, F10", LabelKeyMenuEsc},
		{"letter", LabelKeyMenuLetter},
	}},
	{LabelKeysDialogs, []keyRow{
		{"Tab, ← →", LabelKeyDialogTab},
		{"Enter", LabelKeyDialogEnter},
		{"Esc", LabelKeyDialogEsc},
		{"letter", LabelKeyDialogLetter},
		{"1…9, letter", LabelKeyPermissionDigit},
		{"typing", LabelKeyChoiceType},
	}},
	{LabelKeysInput, []keyRow{
		{"← →", LabelKeyInputMove},
		{"Home, End", LabelKeyInputHomeEnd},
		{"Backspace, Delete", LabelKeyInputDelete},
		{"Ctrl-U, Ctrl-K", LabelKeyInputKill},
		{"paste", LabelKeyInputPaste},
	}},
	{LabelKeysView, []keyRow{
		{"↑ ↓", LabelKeyViewArrows},
		{"PgUp, PgDn", LabelKeyViewPages},
		{"Home, End", LabelKeyViewHomeEnd},
		{"Wheel", LabelKeyWheel},
	}},
	{LabelKeysPanel, []keyRow{
		{"↑ ↓", LabelKeyPanelMove},
		{"Enter, m", LabelKeyPanelActions},
		{"o", LabelKeyPanelTalk},
		{"s, x, r", LabelKeyPanelStartStop},
		{"f, l, t", LabelKeyPanelWindows},
		{"X, D", LabelKeyPanelEngine},
	}},
	{LabelKeysFiles, []keyRow{
		{"↑ ↓ → ←, Enter", LabelKeyFilesMove},
		{"Tab", LabelKeyFilesTab},
		{"n, N", LabelKeyFilesNew},
		{"r, F2", LabelKeyFilesRename},
		{"Delete", LabelKeyFilesDelete},
		{"e, E", LabelKeyFilesEdit},
		{"Ctrl-R", LabelKeyFilesRefresh},
	}},
	{LabelKeysEditor, []keyRow{
		{"Ctrl-Home, Ctrl-End", LabelKeyEditorEnds},
		{"Ctrl-S", LabelKeyEditorSave},
		{"Esc, Ctrl-W", LabelKeyEditorClose},
	}},
	{LabelKeysLog, []keyRow{
		{"↑ ↓", LabelKeyViewArrows},
		{"PgUp, PgDn", LabelKeyViewPages},
		{"Home", LabelKeyLogHome},
		{"End", LabelKeyLogEnd},
	}},
}

// keysLines returns the list of keys in the App's language.
func (a *App) keysLines() []TextLine {
	var lines []TextLine
	for gi, g := range keyGroups {
		if gi > 0 {
			lines = append(lines, TextLine{})
		}
		lines = append(lines, TextLine{Text: a.T(g.title), Class: ClassKeyword})
		for _, r := range g.rows {
			pad := max(20-TextWidth(r.keys), 1)
			lines = append(lines, TextLine{Text: "  " + r.keys + spaces(pad) + a.T(r.effect)})
		}
	}
	return lines
}

func spaces(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

// ShowKeys opens (or focuses) the window listing the keys (F1, Help ▸ Keys).
func (a *App) ShowKeys() {
	for _, w := range a.windows {
		if _, ok := w.widget.(*keysView); ok {
			w.Focus()
			return
		}
	}
	v := &keysView{TextView: NewTextView()}
	v.SetLines(a.keysLines())
	_, _ = a.AddWindow(a.T(LabelKeysTitle), v)
}

// keysView is the text view of the keys window, told apart so F1 focuses it again.
type keysView struct{ *TextView }
