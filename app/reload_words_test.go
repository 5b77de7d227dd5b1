package app

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// The status bar's message after a reload counts its warnings in good grammar.
func TestReloadedTextCountsWarnings(t *testing.T) {
	w := config.Diagnostic{Warning: true}
	for _, c := range []struct {
		lang  i18n.Lang
		diags config.Diagnostics
		want  string
	}{
		{i18n.English, config.Diagnostics{w}, "Configuration reloaded, with 1 warning (all in Agent ▸ Agent status)"},
		{i18n.English, config.Diagnostics{w, w}, "Configuration reloaded, with 2 warnings (all in Agent ▸ Agent status)"},
		{i18n.French, config.Diagnostics{w}, "Configuration rechargée, avec 1 avertissement (tous dans Agent ▸ État des agents)"},
		{i18n.French, config.Diagnostics{w, w, w}, "Configuration rechargée, avec 3 avertissements (tous dans Agent ▸ État des agents)"},
	} {
		ap := &application{lang: c.lang}
		if got := ap.reloadedText(loaded{diags: c.diags}, nil, nil, nil); got != c.want {
			t.Errorf("%s, %d diagnostics: %q, want %q", c.lang, len(c.diags), got, c.want)
		}
	}
	// The first warning is named after the rest.
	named := config.Diagnostics{{Warning: true, Message: "first"}, {Warning: true, Message: "second"}}
	for lang, want := range map[i18n.Lang]string{
		i18n.English: "Configuration reloaded, with 2 warnings (all in Agent ▸ Agent status) · first: first",
		i18n.French:  "Configuration rechargée, avec 2 avertissements (tous dans Agent ▸ État des agents) · le premier : first",
	} {
		ap := &application{lang: lang}
		if got := ap.reloadedText(loaded{diags: named}, nil, nil, nil); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
