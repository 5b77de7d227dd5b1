package window

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// TestLabelsComplete: every label has both languages, with the same verbs in each.
func TestLabelsComplete(t *testing.T) {
	for _, p := range catalogue.Problems(labelNone + 1) {
		t.Error(p)
	}
}

func TestLabelFallback(t *testing.T) {
	saved := labelsFR[LabelOK]
	labelsFR[LabelOK] = ""
	defer func() { labelsFR[LabelOK] = saved }()
	if got := NewLabels(i18n.French).T(LabelOK); got != labelsEN[LabelOK] {
		t.Errorf("missing French text: %q, want the English %q", got, labelsEN[LabelOK])
	}
	if got := NewLabels(i18n.French).T(LabelItemClose); got != "Fermer" {
		t.Errorf("mnemonic marks not removed: %q", got)
	}
}

// TestMnemonicsUnique checks that no two entries of the toolkit's menus share a letter, and
// not the two menus, in either language.
func TestMnemonicsUnique(t *testing.T) {
	a := &App{labels: NewLabels(i18n.English)}
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		a.labels = NewLabels(lang)
		menus := []*Menu{a.WindowMenu(), a.HelpMenu()}
		seen := map[rune]string{}
		for _, m := range menus {
			text, _, letter := splitMnemonic(m.raw(a.labels))
			if letter == 0 {
				t.Errorf("menu %q has no letter", text)
			}
			if other, dup := seen[toLower(letter)]; dup {
				t.Errorf("menus %q and %q share the letter %c", other, text, letter)
			}
			seen[toLower(letter)] = text
			items := map[rune]string{}
			for _, it := range m.Items() {
				text, _, letter := it.text(a.labels)
				if it.Label == labelNone || letter == 0 {
					continue
				}
				if other, dup := items[toLower(letter)]; dup {
					t.Errorf("%v: entries %q and %q share the letter %c", lang, other, text, letter)
				}
				items[toLower(letter)] = text
			}
		}
	}
}

func toLower(r rune) rune { return []rune(strings.ToLower(string(r)))[0] }
