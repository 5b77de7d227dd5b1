package config

import (
	"os"
	"path/filepath"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// wantMode fails the test when path's permissions are not want.
func wantMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s has mode %04o; want %04o", path, got, want)
	}
}

func TestCreateDefaultIsTheUsersAlone(t *testing.T) {
	folder := filepath.Join(t.TempDir(), "config", "sidekicks")
	path := filepath.Join(folder, "config.yaml")
	if err := CreateDefault(path, "/bin/true", i18n.English); err != nil {
		t.Fatal(err)
	}
	wantMode(t, path, 0o600)
	wantMode(t, folder, 0o700)
	wantMode(t, filepath.Dir(folder), 0o700)
}

func TestLocateCreatesTheDefaultFileTheUsersAlone(t *testing.T) {
	folder := isolateUser(t)
	path, created, err := Locate("")
	if err != nil || !created {
		t.Fatalf("Locate = %q, %v, %v; want the default file, created", path, created, err)
	}
	wantMode(t, path, 0o600)
	wantMode(t, folder, 0o700)
}

func TestPreferencesAreTheUsersAlone(t *testing.T) {
	folder := isolateUser(t)
	if err := RememberOpened(touchConfig(t, filepath.Join(t.TempDir(), "c.yaml"))); err != nil {
		t.Fatal(err)
	}
	wantMode(t, filepath.Join(folder, "preferences.json"), 0o600)
	wantMode(t, folder, 0o700)
}

func TestSavingPreferencesMakesAnOpenFilePrivate(t *testing.T) {
	folder := isolateUser(t)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(folder, "preferences.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := RememberOpened(touchConfig(t, filepath.Join(t.TempDir(), "c.yaml"))); err != nil {
		t.Fatal(err)
	}
	wantMode(t, path, 0o600)
}
