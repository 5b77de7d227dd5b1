package app

import (
	"strings"
	"testing"
	"time"
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// TestMenuAgentsAndConfigurationEntries: the entries of the Agents panel, the wizard, the
// project agents file and the configuration's editing run their handlers by their letters,
// in both languages, and Create agents file follows CanCreateAgentsFile.
func TestMenuAgentsAndConfigurationEntries(t *testing.T) {
	for _, tc := range []struct {
		lang                            i18n.Lang
		panel, add, create, edit        rune
		panelText, createText, editText string
		addText                         string
	}{
		{i18n.English, 'p', 'a', 'f', 'e', "Agents panel…", "Create agents file", "Edit configuration", "Add an agent…"},
		{i18n.French, 'p', 'j', 'f', 'm', "Panneau des agents…", "Créer le fichier d'agents", "Modifier la configuration", "Ajouter un agent…"},
	} {
		h := newScreenHarness(t, 100, 30, tc.lang)
		var ran []string
		canCreate := true
		note := func(s string) func() { return func() { ran = append(ran, s) } }
		h.do(func() {
			h.app.SetMenus(menuBar(h.app, menuHandlers{
				AgentsPanel:         note("panel"),
				AddAgent:            note("add"),
				CanCreateAgentsFile: func() bool { return canCreate },
				CreateAgentsFile:    note("create"),
				EditConfig:          note("edit"),
			}))
		})
		h.alt('a')
		for _, want := range []string{tc.panelText, tc.addText, tc.createText} {
			if !strings.Contains(h.text(), want) {
				t.Errorf("%v: the Agent menu lacks %q:\n%s", tc.lang, want, h.text())
			}
		}
		h.typeText(string(tc.panel))
		h.alt('a')
		h.typeText(string(tc.add))
		h.alt('a')
		h.typeText(string(tc.create))
		h.alt('s')
		if !strings.Contains(h.text(), tc.editText) {
			t.Errorf("%v: the Sidekicks menu lacks %q:\n%s", tc.lang, tc.editText, h.text())
		}
		h.typeText(string(tc.edit))
		if got := strings.Join(onScreen(h, func() []string { return ran }), " "); got != "panel add create edit" {
			t.Errorf("%v: the entries ran %q, want panel add create edit", tc.lang, got)
		}

		// Once the project has its file, the entry is disabled: its letter does nothing.
		h.do(func() { canCreate = false })
		h.alt('a')
		h.typeText(string(tc.create))
		h.settle()
		if got := strings.Join(onScreen(h, func() []string { return ran }), " "); got != "panel add create edit" {
			t.Errorf("%v: the disabled entry ran: %q", tc.lang, got)
		}
	}
}

// TestMenuEntriesWithoutHandlers: an entry whose handler is nil is disabled, Create agents
// file included.
func TestMenuEntriesWithoutHandlers(t *testing.T) {
	a := newScreenless(t, i18n.English)
	lang := a.Language()
	for _, m := range menuBar(a, menuHandlers{}) {
		for _, it := range m.Items() {
			switch it.Marked {
			case catalogue.Text(lang, msgItemAgentsPanel), catalogue.Text(lang, msgItemAddAgent), catalogue.Text(lang, msgItemCreateAgentsFile), catalogue.Text(lang, msgItemEditConfig):
				if runnable(it) {
					t.Errorf("%s is enabled without a handler", entryText(it))
				}
			}
		}
	}
	menus := menuBar(a, menuHandlers{CreateAgentsFile: func() {}})
	for _, it := range menus[2].Items() {
		if it.Marked == catalogue.Text(lang, msgItemCreateAgentsFile) && runnable(it) {
			t.Error("Create agents file is enabled without CanCreateAgentsFile")
		}
	}
}

// TestChannelsMenuMembersAndUnread: the member entries are offered when their handlers
// are set, and a channel with unread content is marked.
func TestChannelsMenuMembersAndUnread(t *testing.T) {
	app := newScreenless(t, i18n.English)
	lang := app.Language()
	added := false
	menus := menuBar(app, menuHandlers{
		Channels:       func() []string { return []string{"général", "ops"} },
		OpenChannel:    func(string) {},
		CurrentChannel: func() string { return "général" },
		ChannelUnread:  func(name string) bool { return name == "ops" },
		AddMember:      func() { added = true },
		RemoveMember:   func() {},
	})
	var items []window.MenuItem
	for _, m := range menus {
		if m.Title != nil && m.Title() == catalogue.Text(lang, msgMenuChannels) {
			items = m.Items()
		}
	}
	var shown []string
	for _, it := range items {
		shown = append(shown, entryText(it))
		if it.Marked == catalogue.Text(lang, msgItemAddMember) {
			it.Action()
		}
	}
	got := strings.Join(shown, "|")
	for _, want := range []string{"#général|", "#ops ●|", "Add member…", "Remove member…"} {
		if !strings.Contains(got, want) {
			t.Errorf("Channels menu %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "#général ●") || !added {
		t.Errorf("Channels menu %q (add member ran: %v)", got, added)
	}
}

// TestMenuBarLetters: in either language, the menus of the bar have letters of their own,
// and within each menu no two entries share one.
func TestMenuBarLetters(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		a := newScreenless(t, lang)
		menus := menuBar(a, menuHandlers{Channels: func() []string { return []string{"general"} },
			Agents: func() []agentEntry { return []agentEntry{{Name: "alice"}} }})
		titles := map[rune]string{}
		for _, m := range menus {
			title := m.Title
			if title == nil {
				title = func() string { return a.T(m.Label) }
			}
			text, letter := window.SplitMnemonic(title())
			if m.Title != nil && letter == 0 {
				t.Errorf("%v: the menu %q has no letter", lang, text)
			}
			if other, dup := titles[unicode.ToLower(letter)]; dup && letter != 0 {
				t.Errorf("%v: the menus %q and %q share the letter %c", lang, other, text, letter)
			}
			titles[unicode.ToLower(letter)] = text
			entries := map[rune]string{}
			for _, it := range m.Items() {
				text, letter := window.SplitMnemonic(it.Marked)
				if letter == 0 {
					continue
				}
				if other, dup := entries[unicode.ToLower(letter)]; dup {
					t.Errorf("%v: the entries %q and %q share the letter %c", lang, other, text, letter)
				}
				entries[unicode.ToLower(letter)] = text
			}
		}
	}
}

// TestMenuBarQuitsWithoutAHandler: with no Quit handler, Sidekicks ▸ Quit stops the screen.
func TestMenuBarQuitsWithoutAHandler(t *testing.T) {
	a := newScreenless(t, i18n.English)
	lang := a.Language()
	quit := false
	for _, it := range menuBar(a, menuHandlers{})[0].Items() {
		if it.Marked == catalogue.Text(lang, msgItemQuit) && runnable(it) && *it.Shortcut == window.Alt('x') {
			it.Action()
			quit = true
		}
	}
	if !quit {
		t.Fatal("no Quit entry on Alt-X in the Sidekicks menu")
	}
	done := make(chan error, 1)
	go func() { done <- a.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(windowtest.Deadline):
		t.Fatal("Quit did not stop the screen")
	}
}
