package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// An agent whose workspace does not exist fails at its first message: check warns, at the
// agent's workspace key, names the agent (quoted as the language quotes) and the folder.
func TestCheckWarnsAboutAMissingWorkspace(t *testing.T) {
	for _, tt := range []struct {
		lang, language, want string
	}{
		{"C", "en", "c.yaml: warning: line 7 — agents[0].workspace: agent \"a\": its workspace %[1]s does not exist, so the agent cannot start; create it (mkdir -p %[1]s) or change the agent's workspace\nconfiguration OK (1 warning)\n"},
		{"fr_FR.UTF-8", "fr", "c.yaml: avertissement : ligne 7 — agents[0].workspace : agent « a » : son dossier de travail %[1]s n'existe pas, l'agent ne peut donc pas démarrer ; créez-le (mkdir -p %[1]s) ou changez le workspace de l'agent\nconfiguration valide (1 avertissement)\n"},
	} {
		t.Run(tt.language, func(t *testing.T) {
			dir := inTempDir(t)
			t.Setenv("LANG", tt.lang)
			ws := filepath.Join(dir, "work", "gone")
			writeFile(t, filepath.Join(dir, "c.yaml"), "version: 1\nui:\n  language: "+tt.language+
				"\nagents:\n  - name: a\n    command: /bin/sh\n    workspace: "+ws+"\n")
			code, out, _ := runCmd(t, "check", "--config", "c.yaml")
			if want := fmt.Sprintf(tt.want, ws); code != 0 || out != want {
				t.Errorf("exit %d, output:\n%s\nwant 0 and:\n%s", code, out, want)
			}
			// Once the folder exists, nothing to say.
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			if code, out, _ := runCmd(t, "check", "--config", "c.yaml"); code != 0 || (out != "configuration OK\n" && out != "configuration valide\n") {
				t.Errorf("once the folder exists: exit %d, output:\n%s", code, out)
			}
		})
	}
}

// A file with errors still gets the warning about a missing workspace, in the order of
// its lines, and --json gives it its key and column.
func TestCheckWarnsAboutAMissingWorkspaceWhateverTheErrors(t *testing.T) {
	dir := inTempDir(t)
	t.Setenv("LANG", "C")
	ws := filepath.Join(dir, "gone")
	writeFile(t, filepath.Join(dir, "c.yaml"), "version: 1\nagents:\n  - name: a\n    command: /bin/sh\n    workspace: "+ws+"\nbogus: 1\n")
	code, out, _ := runCmd(t, "check", "c.yaml")
	want := fmt.Sprintf("c.yaml: warning: line 5 — agents[0].workspace: agent \"a\": its workspace %[1]s does not exist, so the agent cannot start; create it (mkdir -p %[1]s) or change the agent's workspace\n"+
		"c.yaml: line 6 — bogus: unknown key \"bogus\"; the keys allowed here: agents, channels, limits, ui, version\n1 error, 1 warning\n", ws)
	if code != 1 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant 1 and:\n%s", code, out, want)
	}
	code, out, _ = runCmd(t, "check", "c.yaml", "--json")
	var problems []jsonProblem
	if err := json.Unmarshal([]byte(out), &problems); err != nil || code != 1 || len(problems) != 2 {
		t.Fatalf("--json: exit %d, %v, output:\n%s", code, err, out)
	}
	if p := problems[0]; p.Key != "agents[0].workspace" || p.Line != 5 || p.Column != 5 || p.Severity != "warning" {
		t.Errorf("--json: the workspace warning is %+v; want key agents[0].workspace, line 5, column 5", p)
	}
}
