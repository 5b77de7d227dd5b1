package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreviewWizardSaysTheWorkspaceIsMissing: the preview carries check's warning about a
// workspace that does not exist, and the folder, which CreateWorkspace then creates; an
// existing folder gives neither.
func TestPreviewWizardSaysTheWorkspaceIsMissing(t *testing.T) {
	t.Setenv("LANG", "C")
	path := newConfigFile(t, "version: 1\nagents: []\n")
	folder := filepath.Join(t.TempDir(), "work", "scout")
	in := WizardInput{Name: "scout", Folder: folder, Where: WhereLocal, Program: "/bin/sh"}
	p, err := PreviewWizard(path, in)
	if err != nil {
		t.Fatal(err)
	}
	if p.MissingWorkspace != folder {
		t.Errorf("MissingWorkspace = %q, want %q", p.MissingWorkspace, folder)
	}
	want := `line 3 — agent "scout": its workspace ` + folder + " does not exist, so the agent cannot start; create it (mkdir -p " + folder + ")"
	if len(p.Warnings) != 1 || !strings.HasPrefix(p.Warnings[0].Message, want) || !p.Warnings[0].Warning {
		t.Errorf("warnings %+v, want one starting %q", p.Warnings, want)
	}
	if err := CreateWorkspace(p); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(folder); err != nil || !fi.IsDir() {
		t.Fatalf("the folder was not created: %v", err)
	}
	// Now it exists: nothing to say, nothing to create.
	p, err = PreviewWizard(path, in)
	if err != nil || p.MissingWorkspace != "" || len(p.Warnings) != 0 {
		t.Errorf("with the folder: %v, MissingWorkspace %q, warnings %+v", err, p.MissingWorkspace, p.Warnings)
	}
}
