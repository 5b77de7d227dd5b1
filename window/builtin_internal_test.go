package window

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// TestKeyGroups: the toolkit's keys name the letters of the menus set (none without
// menus), and SetKeyList replaces what Help ▸ Keys lists.
func TestKeyGroups(t *testing.T) {
	a := &App{labels: NewLabels(i18n.French)}
	altLetter := func() string {
		for _, r := range a.KeyGroups()[0].Rows {
			if r.Keys == "Alt-letter" {
				return r.Effect
			}
		}
		return ""
	}
	if got := altLetter(); got != "Ouvrir le menu dont la lettre est en couleur" {
		t.Errorf("Alt-letter without menus: %q", got)
	}
	a.SetMenus([]*Menu{{Label: LabelMenuWindow}, {Label: LabelMenuHelp}})
	if got := altLetter(); got != "Ouvrir le menu dont la lettre est en couleur (Alt-F, Alt-I)" {
		t.Errorf("Alt-letter with the Window and Help menus: %q", got)
	}
	var titles []string
	for _, l := range a.keysLines() {
		if l.Class == ClassKeyword {
			titles = append(titles, l.Text)
		}
	}
	if got := strings.Join(titles, "|"); got != "Partout|Dans un menu|Dans un dialogue|Dans un champ de texte|Dans une fenêtre de texte" {
		t.Errorf("the toolkit's groups: %q", got)
	}
	a.SetKeyList(func() []KeyGroup {
		return append(a.KeyGroups()[:1], KeyGroup{Title: "Ailleurs", Rows: []KeyRow{{Keys: "Ctrl-Q", Effect: "Rien"}}})
	})
	var text []string
	for _, l := range a.keysLines() {
		text = append(text, l.Text)
	}
	if got := strings.Join(text, "\n"); !strings.Contains(got, "Partout\n  F10") || !strings.Contains(got, "\n\nAilleurs\n  Ctrl-Q              Rien") || strings.Contains(got, "Dans un menu") {
		t.Errorf("the application's list:\n%s", got)
	}
}
