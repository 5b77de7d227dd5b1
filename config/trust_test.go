package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestTrustStore(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	t.Setenv("SIDEKICKS_STATE_DIR", state)
	path := filepath.Join(t.TempDir(), ".sidekicks", "acp.toml")
	v1, v2 := []byte("[[agent]]\nname = \"a\"\ncommand = \"x\"\n"), []byte("[[agent]]\nname = \"a\"\ncommand = \"y\"\n")
	if Trusted(path, v1) {
		t.Fatal("a file never allowed is trusted")
	}
	if err := Allow(path, v1); err != nil {
		t.Fatal(err)
	}
	if !Trusted(path, v1) {
		t.Error("the allowed content is not trusted")
	}
	if Trusted(path, v2) {
		t.Error("a changed content is trusted without a new approval")
	}
	if Trusted(filepath.Join(t.TempDir(), "acp.toml"), v1) {
		t.Error("the same content at another path is trusted")
	}
	other := filepath.Join(t.TempDir(), "acp.toml")
	if err := Allow(other, v2); err != nil {
		t.Fatal(err)
	}
	if err := Allow(path, v2); err != nil {
		t.Fatal(err)
	}
	if !Trusted(path, v2) || Trusted(path, v1) || !Trusted(other, v2) {
		t.Error("after allowing the new content: the old one is still trusted, or the new one or the other file is not")
	}
	st, err := os.Stat(filepath.Join(state, TrustFileName))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("trust store: %v, mode %v; want 0600", err, st)
	}
	if st, err := os.Stat(state); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("state folder: %v; want 0700", err)
	}
	data, _ := os.ReadFile(filepath.Join(state, TrustFileName))
	if n := strings.Count(string(data), "\n"); n != 2 {
		t.Errorf("store holds %d lines, want one per file:\n%s", n, data)
	}
	entries, _ := os.ReadDir(state)
	if len(entries) != 1 {
		t.Errorf("state folder holds %d files, want the store alone", len(entries))
	}
}

func TestReadProjectSaysWhetherItIsAllowed(t *testing.T) {
	t.Setenv("SIDEKICKS_STATE_DIR", t.TempDir())
	pathWithPrograms(t, "mm")
	dir, _ := newProject(t, "[[agent]]\nname = \"Bob\"\ncommand = \"mm\"\n[[agent]]\nname = \"Ann\"\ncommand = \"mm\"\n")
	p := ReadProject(dir, i18n.English)
	if p.Trusted || len(p.Agents) != 2 || p.Path != filepath.Join(dir, ProjectFile) {
		t.Fatalf("before allowing: trusted %v, %d agents, path %q", p.Trusted, len(p.Agents), p.Path)
	}
	if err := p.Allow(); err != nil {
		t.Fatal(err)
	}
	if !ReadProject(dir, i18n.English).Trusted {
		t.Error("not trusted after Allow")
	}
	if err := os.WriteFile(p.Path, []byte("[[agent]]\nname = \"Bob\"\ncommand = \"rm\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ReadProject(dir, i18n.English).Trusted {
		t.Error("a changed file is still trusted")
	}
	if got := NotAllowedText(i18n.English, 2); got != "this folder defines 2 agents in .sidekicks/acp.toml — not allowed; review and allow it in Sidekicks (or `sidekicks allow`)" {
		t.Errorf("English notice %q", got)
	}
	if got := NotAllowedText(i18n.French, 1); !strings.HasPrefix(got, "ce dossier définit 1 agent dans .sidekicks/acp.toml — non autorisé") {
		t.Errorf("French notice %q", got)
	}
}
