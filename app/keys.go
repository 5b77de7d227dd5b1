package app

import (
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/workbench"
)

// keyList is Help ▸ Keys: the toolkit's keys, with what two of them do in Sidekicks (Ctrl-W
// in an agent window, the digits in a permission request), the keys of a permission
// request, of Search history, then the keys of the Agents panel, the Files window, the editor and the Log
// window.
func keyList(a *window.App) []window.KeyGroup {
	lang := a.Language()
	groups := a.KeyGroups()
	if len(groups) > 0 {
		groups[0].Rows = append(groups[0].Rows, window.KeyRow{Keys: "Alt-K", Effect: catalogue.Text(lang, msgKeyAltK)})
	}
	for _, g := range groups {
		for i, r := range g.Rows {
			switch r.Keys {
			case "Ctrl-W":
				g.Rows[i].Effect = catalogue.Text(lang, msgKeyCtrlW)
			case "1…9":
				g.Rows[i].Effect = catalogue.Text(lang, msgKeyPermissionDigit)
			}
		}
	}
	groups = append(groups, window.KeyGroup{Title: catalogue.Text(lang, msgKeysPermission), Rows: []window.KeyRow{
		{Keys: "1…9", Effect: catalogue.Text(lang, msgKeyPermissionDigit)},
		{Keys: "y, n", Effect: catalogue.Text(lang, msgKeyPermKinds)},
		{Keys: "Y, N", Effect: catalogue.Text(lang, msgKeyPermAlways)},
		{Keys: "X", Effect: catalogue.Text(lang, msgKeyPermRejectAll)},
		{Keys: "Esc", Effect: catalogue.Text(lang, msgKeyPermEsc)},
		{Keys: "…", Effect: catalogue.Text(lang, msgKeyPermGuard)},
	}})
	groups = append(groups, searchKeys(lang))
	return append(groups, workbench.KeyGroups(a.Language())...)
}
