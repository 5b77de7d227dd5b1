package config

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// isolateUser gives the test its own home and user configuration folders, no
// SIDEKICKS_CONFIG and English, and returns Sidekicks' folder in them.
func isolateUser(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv(EnvConfig, "")
	t.Setenv("LANG", "C")
	dir, err := Folder()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func touchConfig(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("version: 1\nagents: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func wantLocated(t *testing.T, flag, wantPath string, wantCreated bool) {
	t.Helper()
	path, created, err := Locate(flag)
	if err != nil || path != wantPath || created != wantCreated {
		t.Fatalf("Locate(%q) = %q, %v, %v; want %q, %v, nil", flag, path, created, err, wantPath, wantCreated)
	}
}

func TestLocateOrder(t *testing.T) {
	folder := isolateUser(t)
	home := os.Getenv("HOME")
	fromFlag := filepath.Join(home, "flag.yaml")
	fromEnv := touchConfig(t, filepath.Join(home, "env.yaml"))
	last := touchConfig(t, filepath.Join(home, "last.yaml"))
	defaultPath := filepath.Join(folder, "config.yaml")
	if _, err := RememberOpened(last); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvConfig, "~/env.yaml")

	// 1. The option, even for a file that does not exist yet: the loader says so.
	wantLocated(t, "~/flag.yaml", fromFlag, false)
	// 2. The environment variable.
	wantLocated(t, "", fromEnv, false)
	// 3. The last file opened.
	t.Setenv(EnvConfig, "")
	wantLocated(t, "", last, false)
	// ... only while it exists.
	if err := os.Remove(last); err != nil {
		t.Fatal(err)
	}
	// 4. The default file, created.
	wantLocated(t, "", defaultPath, true)
	wantLocated(t, "", defaultPath, false)
}

func TestLocateRelativeOptionIsAbsolute(t *testing.T) {
	isolateUser(t)
	dir := t.TempDir()
	t.Chdir(dir)
	wantLocated(t, "agents/team.yaml", filepath.Join(dir, "agents", "team.yaml"), false)
	t.Setenv(EnvConfig, "env.yaml")
	wantLocated(t, "", filepath.Join(dir, "env.yaml"), false)
}

func TestLocateCreatesALoadableDefault(t *testing.T) {
	for _, tt := range []struct{ lang, wantLanguage string }{{"C", "en"}, {"fr_FR.UTF-8", "fr"}} {
		t.Run(tt.lang, func(t *testing.T) {
			folder := isolateUser(t)
			t.Setenv("LANG", tt.lang)
			t.Setenv("PATH", t.TempDir())
			path, created, err := Locate("")
			if err != nil || !created || path != filepath.Join(folder, "config.yaml") {
				t.Fatalf("Locate = %q, %v, %v; want the default file, created", path, created, err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			exe, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != string(DefaultFileIn(i18n.Parse(tt.wantLanguage), exe)) {
				t.Errorf("created file is not DefaultFileIn(%q, %q):\n%s", tt.wantLanguage, exe, data)
			}
			cfg, diags := Load(path)
			if len(diags) != 0 || cfg == nil {
				t.Fatalf("the created file loads with %q", diags)
			}
			if cfg.UI.Language.Code() != tt.wantLanguage || len(cfg.Agents) != 1 || cfg.Agents[0].CommandPath != exe {
				t.Errorf("created file: language %q, agents %+v; want %q and the demo agent on %s", cfg.UI.Language, cfg.Agents, tt.wantLanguage, exe)
			}
		})
	}
}

func TestLocateSurvivesCorruptPreferences(t *testing.T) {
	folder := isolateUser(t)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "preferences.json"), []byte(`{"lastOpened": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	wantLocated(t, "", filepath.Join(folder, "config.yaml"), true)
}

func TestLocateWithoutAUserFolderFails(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("os.UserConfigDir only fails this way on Linux")
	}
	isolateUser(t)
	t.Setenv("HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	if path, _, err := Locate(""); err == nil {
		t.Fatalf("Locate without any user folder = %q, nil; want an error", path)
	}
}
