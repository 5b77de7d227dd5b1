package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCompletionManAndCheckOnTheBinary runs the real binary as a user's shell, an editor
// and a packager would: the bash completion loaded with `source <(sidekicks completion
// bash)`, the man page rendered, `check` on several files with --json, and help asked
// after the application's option.
func TestCompletionManAndCheckOnTheBinary(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	team := "version: 1\nagents:\n  - name: alice\n    command: /bin/sh\n  - name: bob\n    command: /bin/sh\n"
	if err := os.WriteFile(filepath.Join(dir, "team.yaml"), []byte(team), 0o644); err != nil {
		t.Fatal(err)
	}

	if bash, err := exec.LookPath("bash"); err != nil {
		t.Log("bash is not installed: the completion is not loaded")
	} else {
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c",
			`source <("$SK" completion bash) && complete -p sidekicks && COMP_WORDS=(sidekicks ch) COMP_CWORD=1 && _sidekicks && echo "${COMPREPLY[*]}" &&
			COMP_WORDS=("$SK" ask --config team.yaml "") COMP_CWORD=4 && _sidekicks && echo "${COMPREPLY[*]}"`)
		cmd.Env = append(env, "SK="+binary)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || string(out) != "complete -F _sidekicks sidekicks\ncheck\nalice bob\n" {
			t.Errorf("the bash completion: %v\n%s", err, out)
		}
	}

	r := runBinary(t, env, dir, 20*time.Second, "man")
	if r.code != 0 || !strings.HasPrefix(r.stdout, ".TH SIDEKICKS 1 ") || r.stderr != "" {
		t.Fatalf("man: code %d, stderr %q, stdout %.60q", r.code, r.stderr, r.stdout)
	}
	if groff, err := exec.LookPath("groff"); err == nil {
		page := filepath.Join(t.TempDir(), "sidekicks.1")
		if err := os.WriteFile(page, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", page)
		var warnings strings.Builder
		cmd.Stderr = &warnings
		if out, err := cmd.Output(); err != nil || warnings.Len() > 0 || !strings.Contains(string(out), "SIDEKICKS_STATE_DIR") {
			t.Errorf("groff: %v, warnings %q", err, warnings.String())
		}
	}

	good, bad := filepath.Join(dir, "good.yaml"), filepath.Join(dir, "bad.yaml")
	for path, text := range map[string]string{good: "version: 1\nagents: []\n", bad: "version: 1\nagents:\n  - name: Bad Name\n    command: /bin/sh\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r = runBinary(t, env, dir, 20*time.Second, "check", "--json", "good.yaml", "bad.yaml")
	var problems []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &problems); err != nil || r.code != 1 || len(problems) != 1 {
		t.Fatalf("check --json: code %d, %v, stdout %q", r.code, err, r.stdout)
	}
	if p := problems[0]; p["file"] != "bad.yaml" || p["line"] != 3.0 || p["key"] != "agents[0].name" || p["severity"] != "error" {
		t.Errorf("check --json: %v", p)
	}
	r = runBinary(t, env, dir, 20*time.Second, "check", "good.yaml", "good.yaml")
	if r.code != 0 || r.stdout != "good.yaml: configuration OK\ngood.yaml: configuration OK\n" {
		t.Errorf("check of two good files: code %d, stdout %q", r.code, r.stdout)
	}

	r = runBinary(t, env, dir, 20*time.Second, "--config", good, "--help")
	if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "usage: sidekicks [--config FILE]\n") {
		t.Errorf("--config F --help: code %d, stdout %.40q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
