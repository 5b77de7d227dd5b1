package window

import "git.rickub.com/bots-garden/sidekicks/i18n"

// SampleBar is a menu bar as an application builds one with the toolkit: three menus of its
// own (titles in the App's language, entries with marked letters, a disabled one, one with
// a shortcut, one listing names that change), then the toolkit's Window and Help menus.
// The titles are Sidekicks' (Channels is Canaux in French), so that the goldens drawn
// under it show the bar they always showed.
type SampleBar struct {
	Names []string // the third menu lists them, each an entry with no letter
	Ran   []string // what the entries ran, in order; read it on the UI goroutine
}

// SampleMenus is a sample bar with no names.
func SampleMenus(a *App) []*Menu { return (&SampleBar{}).Menus(a) }

func (s *SampleBar) Menus(a *App) []*Menu {
	note := func(what string) func() { return func() { s.Ran = append(s.Ran, what) } }
	in := func(en, fr string) func() string {
		return func() string {
			if a.Labels().Language() == i18n.French {
				return fr
			}
			return en
		}
	}
	never := func() bool { return false }
	first := &Menu{Title: in("~S~idekicks", "~S~idekicks"), Items: func() []MenuItem {
		return []MenuItem{
			{Marked: "~O~pen…", Action: note("open")},
			{Marked: "~D~isabled", Enabled: never, Action: note("disabled")},
			{Marked: "~R~eload", Action: note("reload")},
			{Separator: true},
			{Marked: "~Q~uit", Shortcut: keyPtr(Alt('x')), Action: a.Quit},
		}
	}}
	second := &Menu{Title: in("~C~hannels", "~C~anaux"), Items: func() []MenuItem {
		return []MenuItem{{Marked: "~N~ew…", Action: note("new")}, {Text: "(no action)"}}
	}}
	third := &Menu{Title: in("~A~gent", "~A~gent"), Items: func() []MenuItem {
		var items []MenuItem
		for _, n := range s.Names {
			items = append(items, MenuItem{Text: n, Action: note(n)})
		}
		return append(items, MenuItem{Separator: true}, MenuItem{Marked: "~L~ast", Action: note("last")})
	}}
	return []*Menu{first, second, third, a.WindowMenu(), a.HelpMenu()}
}
