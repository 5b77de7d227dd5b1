package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// The variables the agent's process needs as they are, or that change what it loads, are
// refused as secrets, and left out of the agent's environment when the file was edited by
// hand.
func TestSecretsRefuseReservedNames(t *testing.T) {
	for _, name := range []string{"PATH", "HOME", "path", "LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES"} {
		if p := secretProblem(name, "x"); p != imsgReservedName {
			t.Errorf("%s: problem %v, want the reserved name's", name, p)
		}
	}
	for _, name := range []string{"GEMINI_API_KEY", "PATHS", "MY_HOME", "OLD_PRELOAD"} {
		if p := secretProblem(name, "x"); p != imsgNone {
			t.Errorf("%s refused (%v)", name, p)
		}
	}
	file := filepath.Join(t.TempDir(), secretsFileName)
	if err := setSecret(file, "gate", "PATH", "/tmp/evil"); err == nil {
		t.Error("PATH was saved as a secret")
	}
	agents := withSecrets([]config.Agent{{Name: "gate", Env: map[string]string{"PATH": "/usr/bin"}}},
		secrets{"gate": {"PATH": "/tmp/evil", "LD_PRELOAD": "/tmp/evil.so", "GEMINI_API_KEY": "k"}})
	env := agents[0].Env
	if env["PATH"] != "/usr/bin" || env["LD_PRELOAD"] != "" || env["GEMINI_API_KEY"] != "k" {
		t.Errorf("env from a hand-edited file: %v", env)
	}
}

// In French, the Secrets… dialog shows a name's problem whole, however long, and says why
// PATH is refused.
func TestAppSecretNameProblemsInFrench(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "s.yaml")
	writeFile(t, path, "version: 1\nui:\n  language: fr\nagents:\n"+testagents.ModeEntry(t, "gate", "signin", t.TempDir()))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("gate") })
	h.waitTitles("gate")
	h.onUI(h.ap.showSecrets)
	h.waitText("Secrets de gate")
	for _, c := range []struct{ name, text string }{
		{"1BAD", signInCatalogue.Text(h.ap.lang, imsgBadName)},
		{"PATH", signInCatalogue.Text(h.ap.lang, imsgReservedName)},
	} {
		h.typeText(c.name)
		h.press(tcell.KeyEnter)
		h.waitText(strings.Fields(c.text)...)
		for range c.name {
			h.press(tcell.KeyBackspace2)
		}
	}
}
