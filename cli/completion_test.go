package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// completionScript writes the script `sidekicks completion SHELL` prints into a file.
func completionScript(t *testing.T, shell string) string {
	t.Helper()
	code, out, errOut := runCmd(t, "completion", shell)
	if code != 0 || errOut != "" || out == "" {
		t.Fatalf("completion %s: exit %d, stderr %q", shell, code, errOut)
	}
	path := filepath.Join(t.TempDir(), "sidekicks."+shell)
	writeFile(t, path, out)
	return path
}

// TestBashCompletion loads the bash script in a real bash and asks it for completions, as
// bash does when Tab is pressed: the command registered, the sub-commands, each
// command's options, the file names after --config and check, the shells.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := inTempDir(t)
	script := completionScript(t, "bash")
	writeFile(t, filepath.Join(dir, "team.yaml"), "version: 1\n")
	if err := os.Mkdir(filepath.Join(dir, "teams"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "notes.txt"), "")
	for _, tt := range []struct{ line, want string }{
		{"sidekicks ch", "check"},
		{"sidekicks c", "check completion"},
		{"sidekicks ''", "check schema ask allow demo-agent completion man version help"},
		{"sidekicks --", "--config --help --version"},
		{"sidekicks --config team.yaml ch", "check"},
		{"sidekicks --config te", "team.yaml teams"},
		{"sidekicks check --", "--config --json --help"},
		{"sidekicks check --config te", "team.yaml teams"},
		{"sidekicks check team.yaml n", "notes.txt"},
		{"sidekicks ask --trace no", "notes.txt"},
		{"sidekicks ask --", "--config --trace --yes --help"},
		{"sidekicks demo-agent --name ''", ""},
		{"sidekicks completion ''", "bash zsh fish"},
		{"sidekicks completion f", "fish"},
	} {
		// COMP_WORDS and COMP_CWORD as bash sets them for the line, cursor at its end.
		probe := "source " + script + "\ncomplete -p sidekicks >&2\nCOMP_WORDS=(" + tt.line + ")\n" +
			"COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n_sidekicks\necho \"${COMPREPLY[*]}\"\n"
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", probe)
		cmd.Dir = dir
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%q: %v, stderr %q", tt.line, err, stderr.String())
		}
		// compgen -f lists files in the folder's order; bash sorts what it shows.
		if got := sortedWords(string(out)); got != sortedWords(tt.want) {
			t.Errorf("%q completes to %q, want %q", tt.line, got, tt.want)
		}
		if stderr.String() != "complete -F _sidekicks sidekicks\n" {
			t.Errorf("%q: stderr %q, want the completion registered and nothing else", tt.line, stderr.String())
		}
	}
}

// sortedWords returns the words of s sorted, joined with spaces.
func sortedWords(s string) string {
	words := strings.Fields(s)
	slices.Sort(words)
	return strings.Join(words, " ")
}

// TestZshAndFishCompletionsParse checks that the zsh and fish scripts are read without a
// syntax error by those shells, when they are installed.
func TestZshAndFishCompletionsParse(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			path, err := exec.LookPath(shell)
			if err != nil {
				t.Skipf("%s is not installed: its script is not checked", shell)
			}
			inTempDir(t)
			script := completionScript(t, shell)
			if out, err := exec.Command(path, "-n", script).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, out)
			}
			// Loaded, the script registers itself, and fish completes with it.
			probe := map[string]string{
				"zsh":  "autoload -U compinit && compinit -u -D && source " + script + " && print -r -- $_comps[sidekicks]",
				"fish": "source " + script + "; complete -C 'sidekicks ch'; complete -C 'sidekicks completion z'",
			}[shell]
			want := map[string]string{
				"zsh":  "_sidekicks\n",
				"fish": "check\tvalidate the configuration and print its errors and warnings\nzsh\n",
			}[shell]
			cmd := exec.Command(path, "-c", probe)
			cmd.Env = append(os.Environ(), "ZDOTDIR="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
			if out, err := cmd.CombinedOutput(); err != nil || string(out) != want {
				t.Errorf("%s -c %q: %v, output %q, want %q", shell, probe, err, out, want)
			}
		})
	}
}

func TestCompletionUsage(t *testing.T) {
	inTempDir(t)
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		code, out, errOut := runCmd(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: sidekicks completion bash|zsh|fish") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and the usage", args, code, out, errOut)
		}
	}
}
