package window_test

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// The save mode's hint is shown whole, in every language, on an 80-column screen (the
// French one was cut).
func TestFileChooserSaveHintWhole(t *testing.T) {
	for lang, end := range map[i18n.Lang]string{i18n.English: "opens a folder.", i18n.French: "ouvre un dossier."} {
		h := newHarness(t, 80, 24, withLanguage(lang))
		openSaver(h, chooserTree(t), "out.md")
		if s := h.text(); !strings.Contains(s, end) {
			t.Errorf("%v: the hint is cut:\n%s", lang, s)
		}
	}
}
