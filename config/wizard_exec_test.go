package config

import (
	"path/filepath"
	"slices"
	"testing"
)

// docker exec forwards neither the client's working folder nor its environment: the
// wizard's container agent runs in its workspace (-w, the path the loader makes of the
// folder typed) and gets each env key (-e NAME).
func TestWizardContainerExecsInTheWorkspace(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, c := range []struct{ folder, want string }{
		{"", "/cfg"},
		{"agents/x", "/cfg/agents/x"},
		{"~/agents/x", filepath.Join(home, "agents/x")},
		{"/abs/x/../y", "/abs/y"},
	} {
		spec, err := WizardSpec(WizardInput{Name: "boxed", Folder: c.folder, Where: WhereContainer, Container: "box",
			Program: "mm", Arguments: "--acp", BaseDir: "/cfg"})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"exec", "-i", "-w", c.want, "box", "mm", "--acp"}; !slices.Equal(spec.Args, want) {
			t.Errorf("folder %q: args %q, want %q", c.folder, spec.Args, want)
		}
	}
	spec, err := WizardSpec(WizardInput{Name: "boxed", Folder: "rel", Where: WhereContainer, Container: "box", Program: "mm"})
	if err != nil || !slices.Equal(spec.Args, []string{"exec", "-i", "box", "mm"}) {
		t.Errorf("a relative folder without a base: %q, %v", spec.Args, err)
	}
	got := containerExecArgs("box", "/w", []string{"TOKEN", "MODEL"}, []string{"mm", "--acp"})
	if want := []string{"exec", "-i", "-w", "/w", "-e", "TOKEN", "-e", "MODEL", "box", "mm", "--acp"}; !slices.Equal(got, want) {
		t.Errorf("with env keys: %q, want %q", got, want)
	}
}
