package window_test

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	. "git.rickub.com/bots-garden/sidekicks/window"
)

// TestMenuAgentsAndConfigurationEntries: the entries of the Agents panel, the wizard, the
// project agents file and the configuration's editing run their handlers by their letters,
// in both languages, and Create agents file follows CanCreateAgentsFile.
func TestMenuAgentsAndConfigurationEntries(t *testing.T) {
	for _, tc := range []struct {
		lang                            Language
		panel, add, create, edit        rune
		panelText, createText, editText string
		addText                         string
	}{
		{English, 'p', 'a', 'f', 'e', "Agents panel…", "Create agents file", "Edit configuration", "Add an agent…"},
		{French, 'p', 'j', 'f', 'm', "Panneau des agents…", "Créer le fichier d'agents", "Modifier la configuration", "Ajouter un agent…"},
	} {
		h := newHarness(t, 100, 30, withLanguage(tc.lang))
		var ran []string
		canCreate := true
		note := func(s string) func() { return func() { ran = append(ran, s) } }
		h.do(func() {
			h.app.SetMenus(h.app.DefaultMenus(MenuHandlers{
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
		if got := strings.Join(onUI(h, func() []string { return ran }), " "); got != "panel add create edit" {
			t.Errorf("%v: the entries ran %q, want panel add create edit", tc.lang, got)
		}

		// Once the project has its file, the entry is disabled: its letter does nothing.
		h.do(func() { canCreate = false })
		h.alt('a')
		h.typeText(string(tc.create))
		h.do(func() {})
		if got := strings.Join(onUI(h, func() []string { return ran }), " "); got != "panel add create edit" {
			t.Errorf("%v: the disabled entry ran: %q", tc.lang, got)
		}
	}
}

// TestChannelsMenuMembersAndUnread: the member entries are offered when their handlers
// are set, and a channel with unread content is marked.
func TestChannelsMenuMembersAndUnread(t *testing.T) {
	app, err := New(Options{Screen: tcell.NewSimulationScreen("")})
	if err != nil {
		t.Fatal(err)
	}
	added := false
	menus := app.DefaultMenus(MenuHandlers{
		Channels:       func() []string { return []string{"général", "ops"} },
		OpenChannel:    func(string) {},
		CurrentChannel: func() string { return "général" },
		ChannelUnread:  func(name string) bool { return name == "ops" },
		AddMember:      func() { added = true },
		RemoveMember:   func() {},
	})
	var items []MenuItem
	for _, m := range menus {
		if m.Label == LabelMenuChannels {
			items = m.Items()
		}
	}
	var texts []string
	for _, it := range items {
		if it.Label != 0 {
			texts = append(texts, app.T(it.Label))
		} else {
			texts = append(texts, it.Text)
		}
		if it.Label == LabelItemAddMember {
			it.Action()
		}
	}
	got := strings.Join(texts, "|")
	for _, want := range []string{"#général|", "#ops ●|", "Add member…", "Remove member…"} {
		if !strings.Contains(got, want) {
			t.Errorf("Channels menu %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "#général ●") || !added {
		t.Errorf("Channels menu %q (add member ran: %v)", got, added)
	}
}
