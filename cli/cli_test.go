package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/schema"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// runCmd runs the command line args and returns the exit status, stdout and stderr.
// TestMain runs the tests, or the demo agent through this package's own `demo-agent`
// command when a test started this binary as one.
func TestMain(m *testing.M) {
	testagents.MainWith(m, func(args []string) int {
		return run(append([]string{"demo-agent"}, args...), os.Stdout, os.Stderr)
	})
}

// run is the command line of a development build.
func run(args []string, stdout, stderr io.Writer) int { return Run(args, stdout, stderr, "dev") }

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// inTempDir moves the test to a new folder with no project agents file, and isolates
// the environment the command reads.
func inTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("LANG", "C")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("SIDEKICKS_CONFIG", "")
	t.Setenv("SIDEKICKS_STATE_DIR", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	return dir
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckSpecExample(t *testing.T) {
	example, err := os.ReadFile("../examples/test-agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "test-agents.yaml"), string(example))
	// The example's agents' folders exist, as on the machine the specification describes.
	for _, ws := range []string{"agents/alice", "agents/garfield", "agents/translator/workspace"} {
		if err := os.MkdirAll(filepath.Join(dir, ws), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCmd(t, "check", "--config", "test-agents.yaml")
	if code != 0 {
		t.Errorf("exit status %d, want 0 (warnings only); stderr %q", code, errOut)
	}
	want := strings.Join([]string{
		"test-agents.yaml: avertissement : ligne 16 — agents[0].command : « mm » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
		"test-agents.yaml: avertissement : ligne 23 — agents[1].command : « mm » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
		"test-agents.yaml: avertissement : ligne 29 — agents[2].command : « sbx » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
		"configuration valide (3 avertissements)",
		"",
	}, "\n")
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestCheckErrors(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "bad.yaml"), "version: 1\nagents:\n  - name: Alice Smith\n    comand: mm\n")
	code, out, _ := runCmd(t, "check", "--config", filepath.Join(dir, "bad.yaml"))
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	want := strings.Join([]string{
		`bad.yaml: line 3 — agents[0]: missing key "command"`,
		`bad.yaml: line 3 — agents[0].name: "Alice Smith" is not a valid name: lower case letters, digits, "-" or "_", no spaces, starting with a letter (e.g. "alice")`,
		`bad.yaml: line 4 — agents[0].comand: unknown key "comand"; did you mean "command"?`,
		"3 errors",
		"",
	}, "\n")
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestCheckFrenchFromLANG(t *testing.T) {
	dir := inTempDir(t)
	t.Setenv("LANG", "fr_FR.UTF-8")
	writeFile(t, filepath.Join(dir, "c.yaml"), "version: 1\nagents:\n  - name: a\n    command: /bin/sh\n  - name: a\n    command: mm\n")
	code, out, _ := runCmd(t, "check", "--config", "c.yaml")
	want := strings.Join([]string{
		"c.yaml: ligne 5 — agents[1].name : « a » est déjà le nom de agents[0] (ligne 3) ; chaque agent doit avoir son propre nom",
		"c.yaml: avertissement : ligne 6 — agents[1].command : « mm » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
		"1 erreur, 1 avertissement",
		"",
	}, "\n")
	if code != 1 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant 1 and:\n%s", code, out, want)
	}
}

func TestCheckSyntaxError(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "c.yaml"), "ui:\n  language: fr\nversion: 1\nagents:\n  - name: a\n   command: mm\n")
	code, out, _ := runCmd(t, "check", "--config", "c.yaml")
	want := "c.yaml: ligne 6 — YAML invalide : cette ligne n'est pas indentée comme ses voisines ; les clés d'un même ensemble, et les éléments (-) d'une même liste, commencent à la même colonne\n1 erreur\n"
	if code != 1 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant 1 and:\n%s", code, out, want)
	}
}

func TestCheckValidConfiguration(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "sub", "c.yaml"), "version: 1\nagents:\n  - name: a\n    command: /bin/sh\n")
	t.Setenv("SIDEKICKS_CONFIG", filepath.Join(dir, "sub", "c.yaml"))
	code, out, errOut := runCmd(t, "check")
	if code != 0 || out != "configuration OK\n" || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestCheckMissingFile(t *testing.T) {
	inTempDir(t)
	code, out, _ := runCmd(t, "check", "--config", "nope.yaml")
	want := "nope.yaml: the file does not exist; check the path, or create it\n1 error\n"
	if code != 1 || out != want {
		t.Errorf("exit %d, output %q, want 1 and %q", code, out, want)
	}
}

func TestCheckOutsideTheCurrentFolderShowsTheAbsolutePath(t *testing.T) {
	inTempDir(t)
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "c.yaml"), "version: 1\nagents: []\nzz: 1\n")
	_, out, _ := runCmd(t, "check", "--config", filepath.Join(other, "c.yaml"))
	if !strings.HasPrefix(out, filepath.Join(other, "c.yaml")+": line 3 — zz: ") {
		t.Errorf("output %q", out)
	}
}

func TestCheckCreatesTheDefaultFile(t *testing.T) {
	inTempDir(t)
	code, out, errOut := runCmd(t, "check")
	if code != 0 {
		t.Errorf("the default configuration must load: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "created the default configuration") {
		t.Errorf("stderr %q does not say the default file was created", errOut)
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "sidekicks", "config.yaml")); err != nil {
		t.Errorf("default file: %v", err)
	}
}

func TestCheckReportsTheProjectFile(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "c.yaml"), "version: 1\nagents: []\n")
	writeFile(t, filepath.Join(dir, ".sidekicks", "acp.toml"), "[[agent]]\nname = \"Helper\"\n")
	code, out, _ := runCmd(t, "check", "--config", "c.yaml")
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	want := "reading " + filepath.Join(dir, ".sidekicks", "acp.toml") + `: agent "Helper" has no command`
	if !strings.Contains(out, want+"\n") {
		t.Errorf("the project file's problem is not printed as %q:\n%s", want, out)
	}
	if strings.Count(out, "acp.toml") != 1 {
		t.Errorf("the project file is named more than once:\n%s", out)
	}
}

func TestCheckUsage(t *testing.T) {
	inTempDir(t)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"check", "--nope"}, 2},
		{[]string{"check", "--config"}, 2},
		{[]string{"schema", "--nope"}, 2},
		{[]string{"schema", "extra"}, 2},
		{[]string{"nope"}, 2},
		{[]string{"--nope"}, 2},
	} {
		code, _, errOut := runCmd(t, c.args...)
		if code != c.code {
			t.Errorf("%q: exit %d, want %d", c.args, code, c.code)
		}
		if !strings.Contains(errOut, "usage:") {
			t.Errorf("%q: no usage on stderr: %q", c.args, errOut)
		}
	}
	_, _, errOut := runCmd(t, "check", "--nope")
	if !strings.Contains(errOut, "sidekicks check [--json] [--config FILE] [FILE…]") || !strings.Contains(errOut, "-config") {
		t.Errorf("check --nope: %q", errOut)
	}
}

func TestSchemaCommand(t *testing.T) {
	code, out, errOut := runCmd(t, "schema")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if out != string(schema.ConfigSchema()) {
		t.Error("sidekicks schema does not print the embedded schema")
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc["$id"] != schema.ConfigSchemaURL {
		t.Errorf("printed schema: %v, $id %v", err, doc["$id"])
	}
}

func TestVersionCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Run([]string{"version"}, &out, &errb, "v1.2.3-test"); code != 0 || !strings.HasPrefix(out.String(), "sidekicks v1.2.3-test\ncommit: ") {
		t.Errorf("exit %d, output %q", code, out.String())
	}
	if code, _, _ := runCmd(t, "version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d, want 2", code)
	}
}

func TestCheckWarnsWhenSecretsAreReadable(t *testing.T) {
	for _, tt := range []struct {
		lang, language, want string
	}{
		{"C", "en", "c.yaml: warning: its agents' secrets (env values, keys in arguments) can be read by other users (mode 0644); make it yours alone: chmod 600 %s\nconfiguration OK (1 warning)\n"},
		{"fr_FR.UTF-8", "fr", "c.yaml: avertissement : les secrets de ses agents (valeurs env, clés dans les arguments) sont lisibles par d'autres utilisateurs (mode 0644) ; réservez-le à vous seul : chmod 600 %s\nconfiguration valide (1 avertissement)\n"},
	} {
		t.Run(tt.language, func(t *testing.T) {
			dir := inTempDir(t)
			t.Setenv("LANG", tt.lang)
			path := filepath.Join(dir, "c.yaml")
			writeFile(t, path, "version: 1\nui:\n  language: "+tt.language+"\nagents:\n  - name: a\n    command: /bin/sh\n    env:\n      API_KEY: sk-123\n")
			code, out, _ := runCmd(t, "check", "--config", "c.yaml")
			if want := fmt.Sprintf(tt.want, path); code != 0 || out != want {
				t.Errorf("exit %d, output:\n%s\nwant 0 and:\n%s", code, out, want)
			}
			// The user's alone, or readable without env values: no warning.
			if err := os.Chmod(path, 0o600); err != nil {
				t.Fatal(err)
			}
			if code, out, _ := runCmd(t, "check", "--config", "c.yaml"); code != 0 || strings.Contains(out, "chmod") {
				t.Errorf("once 0600: exit %d, output:\n%s", code, out)
			}
		})
	}
}

func TestCheckWarnsAboutTheProjectFileSecrets(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "c.yaml"), "version: 1\nagents: []\n")
	if err := os.Chmod(filepath.Join(dir, "c.yaml"), 0o640); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(dir, ".sidekicks", "acp.toml")
	writeFile(t, project, "[[agent]]\nname = \"Helper\"\ncommand = \"/bin/sh\"\nenv = { GITHUB_TOKEN = \"ghp_x\" }\n")
	// An allowed file, so that the only warning is about its secrets.
	t.Setenv("SIDEKICKS_STATE_DIR", t.TempDir())
	data, err := os.ReadFile(project)
	if err != nil {
		t.Fatal(err)
	}
	if err := config.Allow(project, data); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd(t, "check", "--config", "c.yaml")
	want := filepath.Join(".sidekicks", "acp.toml") + ": warning: its agents' secrets (env values, keys in arguments) can be read by other users (mode 0644); make it yours alone: chmod 600 " + project + "\n"
	if code != 0 || !strings.HasPrefix(out, want) || strings.Count(out, "chmod") != 1 {
		t.Errorf("exit %d, output:\n%s\nwant 0 and first:\n%s", code, out, want)
	}
}
