package store

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDefaultPath(t *testing.T) {
	home := func() (string, error) { return "/home/ada", nil }
	noHome := func() (string, error) { return "", errors.New("no home") }
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	const cfg = "/work/team/sidekicks.yaml"
	hash := func(p string) string {
		got, err := defaultPath(p, "linux", env(nil), home)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`-([0-9a-f]{12})\.db$`).FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("%s: no 12-digit hash in %s", p, got)
		}
		return m[1]
	}
	h := hash(cfg)
	tests := []struct {
		name, goos string
		vars       map[string]string
		home       func() (string, error)
		want       string
	}{
		{"linux default", "linux", nil, home, "/home/ada/.local/share/sidekicks/history/sidekicks-" + h + ".db"},
		{"linux XDG", "linux", map[string]string{"XDG_DATA_HOME": "/data"}, home, "/data/sidekicks/history/sidekicks-" + h + ".db"},
		{"linux relative XDG ignored", "linux", map[string]string{"XDG_DATA_HOME": "data"}, home, "/home/ada/.local/share/sidekicks/history/sidekicks-" + h + ".db"},
		{"macOS", "darwin", map[string]string{"XDG_DATA_HOME": "/data"}, home, "/home/ada/Library/Application Support/sidekicks/history/sidekicks-" + h + ".db"},
		{"SIDEKICKS_DATA_DIR", "linux", map[string]string{DataDirEnv: "/srv/sk", "XDG_DATA_HOME": "/data"}, noHome, "/srv/sk/history/sidekicks-" + h + ".db"},
		{"SIDEKICKS_DATA_DIR on macOS", "darwin", map[string]string{DataDirEnv: "/srv/sk"}, noHome, "/srv/sk/history/sidekicks-" + h + ".db"},
	}
	for _, tt := range tests {
		got, err := defaultPath(cfg, tt.goos, env(tt.vars), tt.home)
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	if _, err := defaultPath(cfg, "linux", env(nil), noHome); err == nil {
		t.Error("no home and no XDG_DATA_HOME: no error")
	}
	if _, err := defaultPath("", "linux", env(nil), home); err == nil {
		t.Error("no configuration path: no error")
	}
	// Same name in another folder: another history.
	if other := hash("/work/other/sidekicks.yaml"); other == h {
		t.Errorf("two folders share the hash %s", h)
	}
	// A relative path is made absolute first: same file, same history.
	if hash("team.yaml") != hash(filepath.Join(mustAbs(t, "."), "team.yaml")) {
		t.Error("relative and absolute paths of the same file hash differently")
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestDefaultPathReal(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(DataDirEnv, dir)
	got, err := DefaultPath("/x/équipe.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(got) != filepath.Join(dir, "history") || !strings.HasPrefix(filepath.Base(got), "équipe-") {
		t.Errorf("DefaultPath = %s", got)
	}
}

func TestFileStem(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/a/sidekicks.yaml", "sidekicks"},
		{"/a/my team.yml", "my_team"},
		{"/a/équipe.yaml", "équipe"},
		{"/a/.hidden.yaml", "hidden"},
		{"/a/..yaml", "config"},
		{"/a/.yaml", "config"},
		{"/a/no-extension", "no-extension"},
		{"/a/v1.2.yaml", "v1.2"},
		{"/a/we*ird:na\\me?<>|\x1b.yaml", "we_ird_na_me_____"},
		{"/a/" + strings.Repeat("x", 100) + ".yaml", strings.Repeat("x", maxFileStem)},
		{"/a/bad\xffutf8.yaml", "bad_utf8"},
	}
	for _, tt := range tests {
		if got := fileStem(tt.path); got != tt.want {
			t.Errorf("fileStem(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
