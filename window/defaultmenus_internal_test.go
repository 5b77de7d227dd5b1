package window

import (
	"strings"
	"testing"
)

// TestMenuEntriesWithoutHandlers: an entry whose handler is nil is disabled, Create agents
// file included.
func TestMenuEntriesWithoutHandlers(t *testing.T) {
	a := &App{labels: NewLabels(English)}
	for _, m := range a.DefaultMenus(MenuHandlers{}) {
		for _, it := range m.Items() {
			switch it.Label {
			case LabelItemAgentsPanel, LabelItemAddAgent, LabelItemCreateAgentsFile, LabelItemEditConfig:
				if it.enabled() {
					t.Errorf("%s is enabled without a handler", a.T(it.Label))
				}
			}
		}
	}
	menus := a.DefaultMenus(MenuHandlers{CreateAgentsFile: func() {}})
	for _, it := range menus[2].Items() {
		if it.Label == LabelItemCreateAgentsFile && it.enabled() {
			t.Error("Create agents file is enabled without CanCreateAgentsFile")
		}
	}
}

// TestKeysListTheAgentsWindows: the list of keys (F1) has the Agents panel's, the Files
// window's, the editor's and the Log window's keys, in both languages.
func TestKeysListTheAgentsWindows(t *testing.T) {
	for lang, want := range map[Language][]string{
		English: {"In the Agents panel", "In the Files window", "In the built-in editor", "In the Log window", "Open its conversation", "Ctrl-S"},
		French:  {"Dans le panneau des agents", "Dans la fenêtre Fichiers", "Dans l'éditeur intégré", "Dans la fenêtre Journal", "Ouvrir sa conversation", "Ctrl-S"},
	} {
		a := &App{labels: NewLabels(lang)}
		var b strings.Builder
		for _, l := range a.keysLines() {
			b.WriteString(l.Text + "\n")
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%v: the list of keys lacks %q:\n%s", lang, w, b.String())
			}
		}
	}
}
