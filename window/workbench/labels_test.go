package workbench

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window"
)

func TestTextsComplete(t *testing.T) {
	for tx := textNone + 1; tx < textCount; tx++ {
		if textsEN[tx] == "" || textsFR[tx] == "" {
			t.Errorf("text %d (%q, %q) lacks a language", tx, textsEN[tx], textsFR[tx])
		}
		if verbs(textsEN[tx]) != verbs(textsFR[tx]) {
			t.Errorf("%q and %q use different verbs", textsEN[tx], textsFR[tx])
		}
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

// The container and sandbox actions are labelled exactly as the specification labels
// them, in each language.
func TestSpecLabels(t *testing.T) {
	want := map[window.Language]map[text]string{
		window.English: {
			tActStopContainer: "■ Stop the container", tActStopSandbox: "■ Stop the sandbox",
			tActRemoveContainer: "🗑 Remove the container", tActRemoveSandbox: "🗑 Remove the sandbox",
		},
		window.French: {
			tActStopContainer: "■ Arrêter le conteneur", tActStopSandbox: "■ Arrêter la sandbox",
			tActRemoveContainer: "🗑 Supprimer le conteneur", tActRemoveSandbox: "🗑 Supprimer la sandbox",
		},
	}
	for lang, texts := range want {
		for tx, s := range texts {
			if got := tr(lang, tx); got != s {
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
