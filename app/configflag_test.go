package app

import (
	"os"
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// A file given by --config (or SIDEKICKS_CONFIG) is used for that start only: it is not the
// last opened file, so the next plain start finds the default file, and creates it.
func TestAppConfigFlagIsNotRememberedAsLastOpened(t *testing.T) {
	dir := appEnv(t)
	given := filepath.Join(dir, "team.yaml")
	writeFile(t, given, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+
		"channels:\n  - name: alpha\n    agents: [alice]\n")
	h := startApp(t, given, dir)
	h.waitTitles("#alpha")
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	prefs, err := config.LoadPreferences()
	if err != nil {
		t.Fatal(err)
	}
	if prefs.LastOpened != "" || len(prefs.Recent) != 0 {
		t.Errorf("a start with --config changed the preferences: last %q, recent %q", prefs.LastOpened, prefs.Recent)
	}
	path, created, err := config.Locate("")
	if err != nil {
		t.Fatal(err)
	}
	def, err := config.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if path != def || !created {
		t.Errorf("a plain start after --config found %s (created %v), want the default %s, created", path, created, def)
	}
	if _, err := os.Stat(def); err != nil {
		t.Errorf("the default file was not created: %v", err)
	}
}

// openedFromApp starts the application as runApplication does on a file the user opened
// from the application while it ran on left (Open…, Recent…).
func openedFromApp(left string) func(*appHarness, *appOptions) {
	return func(_ *appHarness, o *appOptions) { o.openedFrom = left }
}
