package workbench

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// keyRow is one row of the list of keys: the keys as the documentation writes them, and
// what they do.
type keyRow struct {
	keys   string
	effect text
}

// keyGroups are the keys of this package's windows in the list of keys (Help ▸ Keys);
// docs/reference/keys.md is the same list.
var keyGroups = []struct {
	title text
	rows  []keyRow
}{
	{tKeysPanel, []keyRow{
		{"↑ ↓", tKeyPanelMove},
		{"Enter, m", tKeyPanelActions},
		{"o", tKeyPanelTalk},
		{"s, x, r", tKeyPanelStartStop},
		{"f, l, t", tKeyPanelWindows},
		{"X, D", tKeyPanelEngine},
	}},
	{tKeysFiles, []keyRow{
		{"↑ ↓ → ←, Enter", tKeyFilesMove},
		{"Tab", tKeyFilesTab},
		{"n, N", tKeyFilesNew},
		{"r, F2", tKeyFilesRename},
		{"Delete", tKeyFilesDelete},
		{"e, E", tKeyFilesEdit},
		{"Ctrl-R", tKeyFilesRefresh},
	}},
	{tKeysEditor, []keyRow{
		{"Ctrl-Home, Ctrl-End", tKeyEditorEnds},
		{"Ctrl-S", tKeyEditorSave},
		{"Esc, Ctrl-W", tKeyEditorClose},
	}},
	{tKeysLog, []keyRow{
		{"↑ ↓", tKeyLogLine},
		{"PgUp, PgDn", tKeyLogPage},
		{"Home", tKeyLogHome},
		{"End", tKeyLogEnd},
	}},
}

// KeyGroups returns the keys of the Agents panel, the Files window, the built-in editor and
// the Log window in lang, for the application's list of keys (window.App.SetKeyList).
func KeyGroups(lang i18n.Lang) []window.KeyGroup {
	groups := make([]window.KeyGroup, 0, len(keyGroups))
	for _, g := range keyGroups {
		rows := make([]window.KeyRow, len(g.rows))
		for i, r := range g.rows {
			rows[i] = window.KeyRow{Keys: r.keys, Effect: catalogue.Text(lang, r.effect)}
		}
		groups = append(groups, window.KeyGroup{Title: catalogue.Text(lang, g.title), Rows: rows})
	}
	return groups
}
