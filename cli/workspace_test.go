package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// An agent whose workspace does not exist fails at its first message: check warns, at the
// agent's line, and names the folder.
func TestCheckWarnsAboutAMissingWorkspace(t *testing.T) {
	for _, tt := range []struct {
		lang, language, want string
	}{
		{"C", "en", "c.yaml: warning: line 5 — agent \"a\": its workspace %[1]s does not exist, so the agent cannot start; create it (mkdir -p %[1]s) or change the agent's workspace\nconfiguration OK (1 warning)\n"},
		{"fr_FR.UTF-8", "fr", "c.yaml: avertissement : ligne 5 — agent \"a\" : son dossier de travail %[1]s n'existe pas, l'agent ne peut donc pas démarrer ; créez-le (mkdir -p %[1]s) ou changez le workspace de l'agent\nconfiguration valide (1 avertissement)\n"},
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
