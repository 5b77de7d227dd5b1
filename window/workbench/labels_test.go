package workbench

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// TestTextsComplete: every text has both languages, with the same verbs in each.
func TestTextsComplete(t *testing.T) {
	for _, p := range catalogue.Problems(textNone + 1) {
		t.Error(p)
	}
}

// The container and sandbox actions are labelled exactly as the specification labels
// them, in each language.
func TestSpecLabels(t *testing.T) {
	want := map[i18n.Lang]map[text]string{
		i18n.English: {
			tActStopContainer: "■ Stop the container", tActStopSandbox: "■ Stop the sandbox",
			tActRemoveContainer: "🗑 Remove the container", tActRemoveSandbox: "🗑 Remove the sandbox",
		},
		i18n.French: {
			tActStopContainer: "■ Arrêter le conteneur", tActStopSandbox: "■ Arrêter la sandbox",
			tActRemoveContainer: "🗑 Supprimer le conteneur", tActRemoveSandbox: "🗑 Supprimer la sandbox",
		},
	}
	for lang, texts := range want {
		for tx, s := range texts {
			if got := catalogue.Text(lang, tx); got != s {
				t.Errorf("%v: %q, want %q", lang, got, s)
			}
		}
	}
}

func TestLocaleMarks(t *testing.T) {
	tests := []struct {
		lcAll, lcCtype, lang string
		utf8                 bool
	}{
		{"", "", "", true},
		{"", "", "en_US.UTF-8", true},
		{"", "", "fr_FR.utf8", true},
		{"", "", "en_US", true},
		{"", "", "C", false},
		{"POSIX", "", "en_US.UTF-8", false},
		{"", "fr_FR.ISO-8859-1", "en_US.UTF-8", false},
		{"de_DE.UTF-8@euro", "", "", true},
	}
	for _, tt := range tests {
		if got := localeIsUTF8(tt.lcAll, tt.lcCtype, tt.lang); got != tt.utf8 {
			t.Errorf("%+v: UTF-8 %v, want %v", tt, got, tt.utf8)
		}
	}
}
