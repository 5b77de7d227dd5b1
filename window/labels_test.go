package window

import (
	"strings"
	"testing"
)

// TestLabelsComplete lists every label missing in either language.
func TestLabelsComplete(t *testing.T) {
	var missing []string
	for l := labelNone + 1; l < labelCount; l++ {
		if labelsEN[l] == "" {
			missing = append(missing, "en:"+labelName(l))
		}
		if labelsFR[l] == "" {
			missing = append(missing, "fr:"+labelName(l))
		}
	}
	if len(missing) > 0 {
		t.Errorf("labels without a text: %s", strings.Join(missing, ", "))
	}
}

func labelName(l Label) string {
	return "label #" + string(rune('0'+int(l)/100)) + string(rune('0'+int(l)/10%10)) + string(rune('0'+int(l)%10)) + " (" + labelsEN[l] + ")"
}

func TestLabelFallbackAndVerbs(t *testing.T) {
	saved := labelsFR[LabelOK]
	labelsFR[LabelOK] = ""
	defer func() { labelsFR[LabelOK] = saved }()
	if got := NewLabels(French).T(LabelOK); got != labelsEN[LabelOK] {
		t.Errorf("missing French text: %q, want the English %q", got, labelsEN[LabelOK])
	}
	if got := NewLabels(French).T(LabelItemClose); got != "Fermer" {
		t.Errorf("mnemonic marks not removed: %q", got)
	}
	// The same verbs in both languages.
	for l := labelNone + 1; l < labelCount; l++ {
		if verbs(labelsEN[l]) != verbs(labelsFR[l]) && labelsFR[l] != "" {
			t.Errorf("label %q and %q use different verbs", labelsEN[l], labelsFR[l])
		}
	}
	if ParseLanguage("fr") != French || ParseLanguage("de") != English {
		t.Error("ParseLanguage")
	}
}

func verbs(s string) string {
	var v []string
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '%' {
			v = append(v, s[i:i+2])
			i++
		}
	}
	return strings.Join(v, "")
}

// TestMnemonicsUnique checks that no two entries of the toolkit's menus share a letter, and
// not the two menus, in either language.
func TestMnemonicsUnique(t *testing.T) {
	a := &App{labels: NewLabels(English)}
	for _, lang := range []Language{English, French} {
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
