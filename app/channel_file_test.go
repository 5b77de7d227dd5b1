package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// TestAppDeclaredChannelRenamedAndDeletedInTheFile: renaming or deleting a channel the
// configuration declares offers to change the file the same way; Yes changes only that
// channel's lines, and the channel does not come back when the file is read again; No
// leaves the file and says the channel comes back. A rename that only changes the case
// asks nothing.
func TestAppDeclaredChannelRenamedAndDeletedInTheFile(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	original := readText(t, path)
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")

	// A rename that changes only the case asks nothing: the file's channel is still it.
	focusWindowTitled(h, "#ops")
	renameFocusedChannel(h, "OPS")
	if s := h.waitText("Channel renamed to #OPS"); strings.Contains(s, "Declared in") {
		t.Errorf("a change of case asked about the file:\n%s", s)
	}

	// Rename #OPS to #infra, and the file too.
	renameFocusedChannel(h, "infra")
	h.waitText("Declared in sidekicks.yaml", "Yes", "No")
	h.typeText("y")
	h.waitText("sidekicks.yaml updated: #OPS is now #infra there too")
	want := strings.Replace(original, "  - name: ops\n", "  - name: infra\n", 1)
	waitFile(t, h, path, want)
	h.reloadAndWait()
	if names := h.channelNames(); strings.Join(names, ",") != "général,infra" {
		t.Errorf("channels after the reload: %q; #ops came back or #infra went", names)
	}

	// Delete #général, but keep the file: it says the channel comes back.
	focusWindowTitled(h, "#général")
	h.alt('c')
	h.typeText("d")
	h.waitText(`Delete the channel "général" and its history?`)
	h.typeText("y")
	h.waitText("Declared in sidekicks.yaml")
	h.typeText("n")
	h.waitText("#général stays declared in sidekicks.yaml: it comes back at the file's next save")
	if got := readText(t, path); got != want {
		t.Errorf("the file changed although No was chosen:\n%s", got)
	}

	// Delete #infra, and remove it from the file.
	h.reloadAndWait() // #général is back, as said
	focusWindowTitled(h, "#infra")
	h.alt('c')
	h.typeText("d")
	h.waitText(`Delete the channel "infra" and its history?`)
	h.typeText("y")
	h.waitText("Declared in sidekicks.yaml")
	h.typeText("y")
	h.waitText("sidekicks.yaml updated: #infra removed from it too")
	want = strings.Replace(want, "  - name: infra\n    agents: [bob]\n", "", 1)
	waitFile(t, h, path, want)
	h.reloadAndWait()
	if names := h.channelNames(); strings.Join(names, ",") != "général" {
		t.Errorf("channels after the reload: %q, want only #général", names)
	}
}

// renameFocusedChannel renames the focused channel through Channels ▸ Rename channel….
func renameFocusedChannel(h *appHarness, name string) {
	h.t.Helper()
	h.alt('c')
	h.typeText("r")
	h.waitText("Rename channel")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText(name)
	h.press(tcell.KeyEnter)
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// waitFile waits until the file at path holds want (it is written off the screen).
func waitFile(t *testing.T, h *appHarness, path, want string) {
	t.Helper()
	h.waitScreen("the file changed", func(string) bool {
		data, err := os.ReadFile(path)
		return err == nil && string(data) == want
	})
}

// focusWindowTitled puts the window with this title in front.
func focusWindowTitled(h *appHarness, title string) {
	h.t.Helper()
	h.onUI(func() {
		for _, w := range h.ap.wins {
			if w.win.Title() == title {
				w.win.Focus()
			}
		}
	})
	h.waitScreen("the window "+title+" in front", func(string) bool { return h.focusedTitle() == title })
}

// reloadAndWait reads the configuration again, as a save of the file does, and waits until
// it is applied.
func (h *appHarness) reloadAndWait() {
	h.t.Helper()
	h.onUI(func() { h.ap.app.Flash("before the reload") })
	h.waitText("before the reload")
	h.onUI(h.ap.reload)
	h.waitText("Configuration reloaded")
	// That message may be an earlier reload's (a save's, the watcher's) while this one still
	// reads: wait until no reload reads any more, then for what the last one posted.
	r := &h.ap.reloads
	r.mu.Lock()
	running, finished := r.running, r.finished
	r.mu.Unlock()
	if running {
		select {
		case <-finished:
		case <-time.After(appDeadline):
			h.t.Fatalf("the configuration was still being read after %s", appDeadline)
		}
	}
	h.onUI(func() {})
}

// channelNames returns the names of the channels the application shows.
func (h *appHarness) channelNames() []string {
	var names []string
	h.onUI(func() {
		for _, c := range h.ap.channels {
			names = append(names, c.Name)
		}
	})
	return names
}

// TestChannelFileReason: why the file was not changed, in a few words of the user's
// language, for each refusal of the config package.
func TestChannelFileReason(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	write := func(text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("LANG", "C")
	for _, tt := range []struct {
		file   string
		change func() error
		en, fr string
	}{
		{"version: 2\nagents: []\nchannels:\n  - name: a\n", func() error { return config.RemoveChannelFromFile(path, "a") },
			"it has errors", "il a des erreurs"},
		{"version: 1\nagents: []\nchannels: [{name: a}]\n", func() error { return config.RemoveChannelFromFile(path, "a") },
			"its channels are written as [ … ]", "ses canaux sont écrits entre [ … ]"},
		{"version: 1\nagents: []\nchannels:\n  - name: b\n", func() error { return config.RemoveChannelFromFile(path, "a") },
			"it no longer declares that channel", "il ne déclare plus ce canal"},
		{"version: 1\nagents: []\nchannels:\n  - name: a\n  - name: b\n", func() error { return config.RenameChannelInFile(path, "a", "B") },
			"the change would give it an error: line 5 — channels[1].name: channels[0] (line 4) is already named \"B\"",
			"le changement y mettrait une erreur : line 5 — channels[1].name: "},
	} {
		write(tt.file)
		err := tt.change()
		if err == nil {
			t.Errorf("%q: changed", tt.file)
			continue
		}
		if got := channelFileReason(i18n.English, err); !strings.HasPrefix(got, tt.en) {
			t.Errorf("%q: %q, want %q…", tt.file, got, tt.en)
		}
		if got := channelFileReason(i18n.French, err); !strings.HasPrefix(got, tt.fr) {
			t.Errorf("%q in French: %q, want %q…", tt.file, got, tt.fr)
		}
	}
	for _, p := range channelFileCatalogue.Problems(chfmsgTitle) {
		t.Error(p)
	}
}
