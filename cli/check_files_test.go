package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Three configurations: one without a problem, one with a warning, one with an error.
const (
	goodConfig    = "version: 1\nagents:\n  - name: a\n    command: /bin/sh\n"
	warningConfig = "version: 1\nagents:\n  - name: b\n    command: mm\n"
	brokenConfig  = "version: 1\nagents:\n  - name: Alice Smith\n    command: /bin/sh\n"
)

// TestCheckSeveralFiles: file by file, in the order of the arguments, its problems then its
// summary; the exit status is the worst of them.
func TestCheckSeveralFiles(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "good.yaml"), goodConfig)
	writeFile(t, filepath.Join(dir, "warn.yaml"), warningConfig)
	writeFile(t, filepath.Join(dir, "bad.yaml"), brokenConfig)

	code, out, errOut := runCmd(t, "check", "good.yaml", "warn.yaml")
	want := strings.Join([]string{
		"good.yaml: configuration OK",
		`warn.yaml: warning: line 4 — agents[0].command: "mm" was not found in PATH; install it, or write its full path`,
		"warn.yaml: configuration OK (1 warning)",
		"",
	}, "\n")
	if code != 0 || out != want || errOut != "" {
		t.Errorf("good and warn: exit %d, stderr %q, output:\n%s\nwant 0 and:\n%s", code, errOut, out, want)
	}

	// --config counts as the first file; an error anywhere makes the status 1.
	code, out, _ = runCmd(t, "check", "--config", "good.yaml", "bad.yaml", "warn.yaml")
	want = strings.Join([]string{
		"good.yaml: configuration OK",
		`bad.yaml: line 3 — agents[0].name: "Alice Smith" is not a valid name: lower case letters, digits, "-" or "_", no spaces, starting with a letter (e.g. "alice")`,
		"bad.yaml: 1 error",
		`warn.yaml: warning: line 4 — agents[0].command: "mm" was not found in PATH; install it, or write its full path`,
		"warn.yaml: configuration OK (1 warning)",
		"",
	}, "\n")
	if code != 1 || out != want {
		t.Errorf("good, bad and warn: exit %d, output:\n%s\nwant 1 and:\n%s", code, out, want)
	}

	// A file that does not exist is an error of its own.
	code, out, _ = runCmd(t, "check", "good.yaml", "missing.yaml")
	if code != 1 || !strings.Contains(out, "missing.yaml: ") || !strings.Contains(out, "good.yaml: configuration OK\n") {
		t.Errorf("good and missing: exit %d, output:\n%s", code, out)
	}
}

// TestCheckSeveralFilesWithTheProjectFile: with several files, the folder's project agents
// file is checked once, after them, with a summary of its own.
func TestCheckSeveralFilesWithTheProjectFile(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "good.yaml"), goodConfig)
	writeFile(t, filepath.Join(dir, "warn.yaml"), warningConfig)
	writeFile(t, filepath.Join(dir, ".sidekicks", "acp.toml"), "[[agent]]\nname = \"Helper\"\n")
	code, out, _ := runCmd(t, "check", "good.yaml", "warn.yaml")
	project := filepath.Join(dir, ".sidekicks", "acp.toml")
	want := strings.Join([]string{
		"good.yaml: configuration OK",
		`warn.yaml: warning: line 4 — agents[0].command: "mm" was not found in PATH; install it, or write its full path`,
		"warn.yaml: configuration OK (1 warning)",
		"reading " + project + `: agent "Helper" has no command`,
		filepath.Join(".sidekicks", "acp.toml") + ": 1 error",
		"",
	}, "\n")
	if code != 1 || out != want {
		t.Errorf("exit %d, output:\n%s\nwant 1 and:\n%s", code, out, want)
	}
}

// TestCheckJSON: --json prints one array of problems, one object a line, with the file,
// line, column, key, severity and the message without its line and key.
func TestCheckJSON(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "warn.yaml"), warningConfig)
	writeFile(t, filepath.Join(dir, "bad.yaml"), brokenConfig)
	outside := filepath.Join(t.TempDir(), "good.yaml")
	writeFile(t, outside, goodConfig)

	code, out, errOut := runCmd(t, "check", "--json", "bad.yaml", "warn.yaml", outside)
	if code != 1 || errOut != "" {
		t.Errorf("exit %d, stderr %q; want 1 (bad.yaml has an error)", code, errOut)
	}
	var problems []map[string]any
	if err := json.Unmarshal([]byte(out), &problems); err != nil {
		t.Fatalf("not one JSON value: %v\n%s", err, out)
	}
	want := []map[string]any{
		{"file": "bad.yaml", "line": 3.0, "column": 5.0, "key": "agents[0].name", "severity": "error",
			"message": `"Alice Smith" is not a valid name: lower case letters, digits, "-" or "_", no spaces, starting with a letter (e.g. "alice")`},
		{"file": "warn.yaml", "line": 4.0, "column": 5.0, "key": "agents[0].command", "severity": "warning",
			"message": `"mm" was not found in PATH; install it, or write its full path`},
	}
	if len(problems) != len(want) {
		t.Fatalf("%d problems, want %d:\n%s", len(problems), len(want), out)
	}
	for i := range want {
		if len(problems[i]) != len(want[i]) {
			t.Errorf("problem %d has the fields %v, want exactly %v", i, problems[i], want[i])
		}
		for k, v := range want[i] {
			if problems[i][k] != v {
				t.Errorf("problem %d: %s = %#v, want %#v", i, k, problems[i][k], v)
			}
		}
	}
	// One object a line, so that a line-oriented tool can read it too.
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 || lines[0] != "[" || lines[3] != "]" {
		t.Errorf("not one object a line:\n%s", out)
	}

	// No problem: an empty array, status 0.
	if code, out, _ := runCmd(t, "check", "--json", outside); code != 0 || out != "[]\n" {
		t.Errorf("good file: exit %d, output %q; want 0 and []", code, out)
	}
}

// TestCheckJSONOfAFileThatCannotBeRead: the reading error is a problem without a line.
func TestCheckJSONOfAFileThatCannotBeRead(t *testing.T) {
	dir := inTempDir(t)
	if err := os.Mkdir(filepath.Join(dir, "folder.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd(t, "check", "--json", "folder.yaml")
	var problems []struct {
		File, Key, Severity, Message string
		Line, Column                 int
	}
	if err := json.Unmarshal([]byte(out), &problems); err != nil || code != 1 || len(problems) != 1 {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if p := problems[0]; p.File != "folder.yaml" || p.Line != 0 || p.Column != 0 || p.Severity != "error" || p.Message == "" {
		t.Errorf("problem %+v", p)
	}
}

// TestCheckOptionsAfterTheFiles: options may follow the files, as users type them; after
// "--" everything is a file.
func TestCheckOptionsAfterTheFiles(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "good.yaml"), goodConfig)
	code, out, errOut := runCmd(t, "check", "good.yaml", "--json")
	if code != 0 || out != "[]\n" || errOut != "" {
		t.Errorf("check good.yaml --json: exit %d, stderr %q, output %q; want 0 and []", code, errOut, out)
	}
	code, out, _ = runCmd(t, "check", "good.yaml", "--", "--json")
	if code != 1 || !strings.Contains(out, "--json: ") || !strings.Contains(out, "good.yaml: configuration OK\n") {
		t.Errorf("check good.yaml -- --json: exit %d, output:\n%s\nwant 1, --json checked as a file", code, out)
	}
}

// TestCheckLanguageWithoutUILanguage: a file without ui.language speaks the environment's
// language, valid or not, as the application does.
func TestCheckLanguageWithoutUILanguage(t *testing.T) {
	dir := inTempDir(t)
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("LANG", "fr_FR.UTF-8")
	writeFile(t, filepath.Join(dir, "good.yaml"), goodConfig)
	if code, out, _ := runCmd(t, "check", "good.yaml"); code != 0 || out != "configuration valide\n" {
		t.Errorf("LANG=fr, valid file: exit %d, output %q; want 0 and \"configuration valide\"", code, out)
	}
	writeFile(t, filepath.Join(dir, "warn.yaml"), warningConfig)
	if code, out, _ := runCmd(t, "check", "warn.yaml"); code != 0 || !strings.HasSuffix(out, "configuration valide (1 avertissement)\n") {
		t.Errorf("LANG=fr, file with a warning: exit %d, output %q", code, out)
	}
}
