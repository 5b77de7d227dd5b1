package config

import (
	"os"
	"path/filepath"
	"strings"
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
	if _, err := RememberOpened(touchConfig(t, filepath.Join(t.TempDir(), "c.yaml"))); err != nil {
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
	if _, err := RememberOpened(touchConfig(t, filepath.Join(t.TempDir(), "c.yaml"))); err != nil {
		t.Fatal(err)
	}
	wantMode(t, path, 0o600)
}

func TestReadableSecrets(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, mode os.FileMode) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("version: 1\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	key := map[string]string{"API_KEY": "sk-1"}
	for _, tt := range []struct {
		name  string
		mode  os.FileMode
		env   map[string]string
		warns bool
		agent func(*Agent)
	}{
		{"world readable", 0o644, key, true, nil},
		{"group readable", 0o640, key, true, nil},
		{"the user's alone", 0o600, key, false, nil},
		{"read-only for the user", 0o400, key, false, nil},
		{"no env", 0o644, nil, false, nil},
		{"empty values only", 0o644, map[string]string{"API_KEY": ""}, false, nil},
		{"a key in its arguments", 0o644, nil, true, func(a *Agent) { a.Args = []string{"serve", "--api-key", "sk-1"} }},
		{"a token in afterStop", 0o640, nil, true, func(a *Agent) { a.AfterStop = []string{"unload", "--token=t"} }},
		{"a password in lifecycle.create", 0o644, nil, true, func(a *Agent) { a.Runtime.Lifecycle.Create = []string{"docker", "run", "-e", "DB_PASSWORD=p"} }},
		{"arguments without secrets", 0o644, nil, false, func(a *Agent) { a.Args = []string{"serve", "--model", "opus", "-e", "API_KEY"} }},
		{"a key in its arguments, the user's alone", 0o600, nil, false, func(a *Agent) { a.Args = []string{"--api-key", "sk-1"} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := file(tt.name+".yaml", tt.mode)
			// Two agents of the same file: one warning at most.
			agents := []Agent{{Name: "a", Source: path, Env: tt.env}, {Name: "b", Source: path, Env: tt.env}}
			if tt.agent != nil {
				tt.agent(&agents[0])
				tt.agent(&agents[1])
			}
			got := ReadableSecrets(agents, i18n.English)
			if !tt.warns {
				if len(got) != 0 {
					t.Errorf("ReadableSecrets = %q; want none", got)
				}
				return
			}
			if len(got) != 1 || !got[0].Warning || got[0].File != path || !strings.HasSuffix(got[0].Message, "chmod 600 '"+path+"'") {
				t.Errorf("ReadableSecrets = %+v; want one warning about %s ending with chmod 600 '%s'", got, path, path)
			}
		})
	}
}

func TestReadableSecretsFollowsLinksAndSkipsMissingFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.yaml")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	key := map[string]string{"TOKEN": "t"}
	agents := []Agent{{Source: link, Env: key}, {Source: filepath.Join(dir, "gone.yaml"), Env: key}}
	if got := ReadableSecrets(agents, i18n.French); len(got) != 0 {
		t.Errorf("ReadableSecrets = %q; want none: the link's target is 0600, the other file is gone", got)
	}
	if err := os.Chmod(target, 0o644); err != nil {
		t.Fatal(err)
	}
	got := ReadableSecrets(agents, i18n.French)
	if len(got) != 1 || got[0].File != link || !strings.Contains(got[0].Message, "lisibles par d'autres utilisateurs (mode 0644)") {
		t.Errorf("ReadableSecrets = %q; want one French warning about %s", got, link)
	}
}
