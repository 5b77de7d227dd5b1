package window

import (
	"strconv"
	"strings"
	"unicode"
)

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
	desktop func() string     // the empty desktop's text; nil for the toolkit's
	keys    func() []KeyGroup // Help ▸ Keys; nil for the toolkit's keys
}

// SetDesktopText sets what the desktop says while no window is open (where to start):
// text returns it in the App's language, at each frame it shows. nil gives back the
// toolkit's own "No window open."
func (a *App) SetDesktopText(text func() string) {
	a.builtin.desktop = text
	a.markDirty()
}

// KeyRow is one row of the list of keys (Help ▸ Keys): keys as the documentation writes
// them ("Alt-1…Alt-9"), and what they do, in the App's language.
type KeyRow struct {
	Keys   string
	Effect string
}

// KeyGroup is one titled group of the list of keys: where its keys work.
type KeyGroup struct {
	Title string
	Rows  []KeyRow
}

// keyRow is one row of the toolkit's keys.
type keyRow struct {
	keys   string
	effect Label
}

// keyGroups are the toolkit's own keys, as KeyGroups gives them; docs/reference/keys.md
// has them too.
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
		{"1…9", LabelKeyOptionDigit},
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
}

// KeyGroups returns the toolkit's own keys in the App's language: everywhere, in a menu,
// in a dialog, in a text field, in a text window. Alt-letter names the letters of the
// menus set now.
func (a *App) KeyGroups() []KeyGroup {
	groups := make([]KeyGroup, len(keyGroups))
	for gi, g := range keyGroups {
		groups[gi].Title = a.T(g.title)
		for _, r := range g.rows {
			effect := a.T(r.effect)
			if r.effect == LabelKeyAltLetter {
				effect += a.menuLetters()
			}
			groups[gi].Rows = append(groups[gi].Rows, KeyRow{Keys: r.keys, Effect: effect})
		}
	}
	return groups
}

// menuLetters lists the keys that open the menus, " (Alt-S, Alt-C)"; "" without menus.
func (a *App) menuLetters() string {
	var keys []string
	for _, m := range a.menus {
		if _, _, letter := splitMnemonic(m.raw(a.labels)); letter != 0 {
			keys = append(keys, "Alt-"+string(unicode.ToUpper(letter)))
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return " (" + strings.Join(keys, ", ") + ")"
}

// SetKeyList sets what Help ▸ Keys lists: list returns the groups in the App's language
// each time the list opens, usually KeyGroups with the application's own keys. nil lists
// the toolkit's own.
func (a *App) SetKeyList(list func() []KeyGroup) { a.builtin.keys = list }

// keysLines returns the list of keys in the App's language.
func (a *App) keysLines() []TextLine {
	groups := a.KeyGroups()
	if a.builtin.keys != nil {
		groups = a.builtin.keys()
	}
	var lines []TextLine
	for gi, g := range groups {
		if gi > 0 {
			lines = append(lines, TextLine{})
		}
		lines = append(lines, TextLine{Text: g.Title, Class: ClassKeyword})
		for _, r := range g.Rows {
			pad := max(20-TextWidth(r.Keys), 1)
			lines = append(lines, TextLine{Text: "  " + r.Keys + spaces(pad) + r.Effect})
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
