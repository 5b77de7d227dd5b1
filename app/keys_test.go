package app

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// newScreenless returns a window.App in lang that is never run: enough to build the menus
// and the list of keys.
func newScreenless(t *testing.T, lang i18n.Lang) *window.App {
	t.Helper()
	a, err := window.New(window.Options{Screen: tcell.NewSimulationScreen(""), Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// keyListText is the list of keys as text, a row a line.
func keyListText(groups []window.KeyGroup) string {
	var b strings.Builder
	for _, g := range groups {
		b.WriteString(g.Title + "\n")
		for _, r := range g.Rows {
			b.WriteString("  " + r.Keys + "  " + r.Effect + "\n")
		}
	}
	return b.String()
}

// TestKeysListTheAgentsWindows: the list of keys (F1) has the Agents panel's, the Files
// window's, the editor's and the Log window's keys, in both languages, and says which
// letters open the menus and what Ctrl-W, Alt-K and the digits do in Sidekicks.
func TestKeysListTheAgentsWindows(t *testing.T) {
	for lang, want := range map[i18n.Lang][]string{
		i18n.English: {"Alt-letter  Open the menu whose letter is highlighted (Alt-S, Alt-C, Alt-A, Alt-W, Alt-H)", "In the Agents panel", "In the Files window", "In the built-in editor", "In the Log window", "Open its conversation", "Ctrl-S",
			"Ctrl-W  Close the window (an agent window also stops its agent)",
			"1…9  In a permission request, choose option N (never a letter of its name)",
			"Alt-K  In an agent window, kill the commands the agent runs in Sidekicks' terminal", "Y, N  Answer with the first \"always\" option (allow, reject); Enter confirms"},
		i18n.French: {"Alt-letter  Ouvrir le menu dont la lettre est en couleur (Alt-S, Alt-C, Alt-A, Alt-F, Alt-I)", "Dans le panneau des agents", "Dans la fenêtre Fichiers", "Dans l'éditeur intégré", "Dans la fenêtre Journal", "Ouvrir sa conversation", "Ctrl-S",
			"Ctrl-W  Fermer la fenêtre (une fenêtre agent arrête aussi son agent)",
			"1…9  Dans une demande d'autorisation, choisir l'option N",
			"Alt-K  Dans une fenêtre agent, arrêter les commandes que l'agent lance dans le terminal de Sidekicks", "X  Quand plusieurs demandes attendent : toutes les refuser"},
	} {
		a := newScreenless(t, lang)
		a.SetMenus(menuBar(a, menuHandlers{}))
		got := keyListText(keyList(a))
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: the list of keys lacks %q:\n%s", lang, w, got)
			}
		}
	}
}
