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
		{i18n.English, config.Diagnostics{w}, "Configuration reloaded, with 1 warning"},
		{i18n.English, config.Diagnostics{w, w}, "Configuration reloaded, with 2 warnings"},
		{i18n.French, config.Diagnostics{w}, "Configuration rechargée, avec 1 avertissement"},
		{i18n.French, config.Diagnostics{w, w, w}, "Configuration rechargée, avec 3 avertissements"},
	} {
		ap := &application{lang: c.lang}
		if got := ap.reloadedText(loaded{diags: c.diags}, nil, nil, nil); got != c.want {
			t.Errorf("%s, %d diagnostics: %q, want %q", c.lang, len(c.diags), got, c.want)
		}
	}
}
