package workbench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

func TestFilesTextsComplete(t *testing.T) {
	for _, p := range filesCatalogue.Problems(0) {
		t.Error(p)
	}
}

// ownAgent is filesAgent whose workspace also holds Sidekicks' configuration, its
// preferences and its logs folder, and a link planted to the configuration; it returns
// those own files.
func ownAgent(t *testing.T) (config.Agent, runtime.OwnFiles) {
	t.Helper()
	a := filesAgent(t)
	for name, content := range map[string]string{"config.yaml": "version: 1\n", "preferences.json": "{}\n", "logs/sidekicks.log": "log\n"} {
		p := filepath.Join(a.Workspace, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("config.yaml", filepath.Join(a.Workspace, "cfg-link")); err != nil {
		t.Fatal(err)
	}
	return a, runtime.OwnFiles{
		{Path: filepath.Join(a.Workspace, "config.yaml"), Kind: runtime.OwnConfig},
		{Path: filepath.Join(a.Workspace, "preferences.json"), Kind: runtime.OwnPreferences},
		{Path: filepath.Join(a.Workspace, "logs"), Kind: runtime.OwnLogs, Folder: true},
	}
}

// Sidekicks' own files are shown locked, with what they are, in the tree and on the
// status line, and every change to them is refused saying why, in the user's language —
// in a local workspace and in a container's.
func TestFilesLocksSidekicksOwnFiles(t *testing.T) {
	for _, tt := range []struct {
		kind            string
		lang            i18n.Lang
		status, refusal string
	}{
		{"local", i18n.English, "Sidekicks' own file: the configuration file in use",
			"“config.yaml” is locked: it is one of Sidekicks' own files (the configuration file in use)"},
		{"local", i18n.French, "fichier de Sidekicks : le fichier de configuration en cours",
			"« config.yaml » est verrouillé : c'est un des fichiers de Sidekicks (le fichier de configuration en cours)"},
		{"container", i18n.English, "Sidekicks' own file: the configuration file in use",
			"“config.yaml” is locked: it is one of Sidekicks' own files (the configuration file in use)"},
	} {
		t.Run(tt.kind+"-"+tt.lang.Code(), func(t *testing.T) {
			a, own := ownAgent(t)
			if tt.kind != "local" {
				installEngines(t)
				a = inEngine(a, tt.kind, config.Lifecycle{})
			}
			h := newHarness(t, 140, 24, tt.lang)
			var f *Files
			// said waits until the window says want (it may wrap on the screen).
			said := func(want string) {
				t.Helper()
				h.waitFrame("the message "+want, func(screenFrame) bool { return onUI(h, func() string { return f.msg }) == want })
			}
			h.do(func() {
				var err error
				if f, _, err = OpenFiles(FilesOptions{App: h.app, Agent: a, OwnFiles: own}); err != nil {
					t.Fatal(err)
				}
			})
			h.waitText("config.yaml 🔒", "preferences.json 🔒", "logs/ 🔒")
			selectPath(t, h, f, "config.yaml")
			h.waitText(tt.status)
			for _, k := range []func(){
				func() { h.press(tcell.KeyDelete) },
				func() { h.typeText("r") },
				func() { h.typeText("e") },
				func() { h.typeText("E") },
			} {
				h.do(func() { f.msg = ""; f.Select("config.yaml") })
				k()
				h.waitText(tt.refusal)
				said(ownLockedText(tt.lang, "config.yaml", runtime.OwnConfig))
			}
			// The logs folder itself is locked.
			h.do(func() { f.msg = ""; f.Select("logs") })
			h.press(tcell.KeyDelete)
			said(ownLockedText(tt.lang, "logs", runtime.OwnLogs))
			for name, want := range map[string]string{"config.yaml": "version: 1\n", "preferences.json": "{}\n", "logs/sidekicks.log": "log\n"} {
				if b, err := os.ReadFile(filepath.Join(a.Workspace, filepath.FromSlash(name))); err != nil || string(b) != want {
					t.Errorf("%s: %q, %v; want it unchanged", name, b, err)
				}
			}
			if tt.kind == "local" {
				// A link to the configuration is the configuration.
				h.do(func() { f.msg = ""; f.Select("cfg-link") })
				h.waitText("cfg-link 🔒", tt.status)
				h.typeText("e")
				said(ownLockedText(tt.lang, "cfg-link", runtime.OwnConfig))
			}
		})
	}
}
