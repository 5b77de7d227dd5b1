package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
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
		{"sidekicks ask --", "--config --trace --yes --mode --option --help"},
		{"sidekicks demo-agent --name ''", ""},
		{"sidekicks completion ''", "bash zsh fish"},
		{"sidekicks completion f", "fish"},
		// The agent of ask, from the configuration --config names (stubbed below).
		{"sidekicks ask --config team.yaml ''", "alice bob"},
		{"sidekicks ask --trace notes.txt --yes --config team.yaml b", "bob"},
		{"sidekicks ask --config team.yaml alice ''", ""},
		{"sidekicks ask ''", "carol"},
	} {
		// COMP_WORDS and COMP_CWORD as bash sets them for the line, cursor at its end.
		// sidekicks itself answers `completion agents`: alice and bob in team.yaml, carol
		// in the configuration found without --config.
		stub := `sidekicks() { case "$*" in "completion agents --config team.yaml") echo alice; echo bob ;; "completion agents") echo carol ;; esac; }` + "\n"
		probe := stub + "source " + script + "\ncomplete -p sidekicks >&2\nCOMP_WORDS=(" + tt.line + ")\n" +
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

// TestZshAndFishCompletionsLoad checks that the zsh and fish scripts are read without a
// syntax error by those shells, when they are installed, and that they work once loaded:
// zsh registers the function and passes --config on to the agents list, fish completes.
func TestZshAndFishCompletionsLoad(t *testing.T) {
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
				// And its agents' function passes --config on, as one option and one value.
				"zsh": "autoload -U compinit && compinit -u -D && source " + script + " && print -r -- $_comps[sidekicks]; " +
					"sidekicks() { (( $# == 4 )) && [[ $3 == --config && $4 == 'my team.yaml' ]] && print -l alice bob }; " +
					"compadd() { print -r -- ${(P)2} }; words=(ask --config 'my team.yaml' a); _sidekicks_agents",
				"fish": "function sidekicks; test \"$argv\" = 'completion agents --config team.yaml'; and echo alice; end; " +
					"source " + script + "; complete -C 'sidekicks ch'; complete -C 'sidekicks completion z'; complete -C 'sidekicks ask --config team.yaml a'",
			}[shell]
			want := map[string]string{
				"zsh":  "_sidekicks\nalice bob\n",
				"fish": "check\tvalidate the configuration and print its errors and warnings\nzsh\nalice\n",
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

// TestCompletionAgents: `completion agents` lists the agents ask can run, for the scripts:
// those of the configuration --config names, with the folder's project agents once
// allowed; without a configuration, those project agents only, and the default file is
// not created.
func TestCompletionAgents(t *testing.T) {
	dir := inTempDir(t)
	writeFile(t, filepath.Join(dir, "team.yaml"), "version: 1\nagents:\n  - name: alice\n    command: /bin/sh\n  - name: bob\n    command: /bin/sh\n")
	if code, out, _ := runCmd(t, "completion", "agents", "--config", "team.yaml"); code != 0 || out != "alice\nbob\n" {
		t.Errorf("exit %d, output %q", code, out)
	}
	project := filepath.Join(dir, ".sidekicks", "acp.toml")
	writeFile(t, project, "[[agent]]\nname = \"helper\"\ncommand = \"/bin/sh\"\n\n[[agent]]\nname = \"bob\"\ncommand = \"/bin/sh\"\n")
	if _, out, _ := runCmd(t, "completion", "agents", "--config", "team.yaml"); out != "alice\nbob\n" {
		t.Errorf("with a project agents file not allowed: %q", out)
	}
	data, err := os.ReadFile(project)
	if err != nil {
		t.Fatal(err)
	}
	if err := config.Allow(project, data); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := runCmd(t, "completion", "agents", "--config", "team.yaml"); out != "alice\nbob\nhelper\n" {
		t.Errorf("with the project agents file allowed: %q", out)
	}
	if code, out, errOut := runCmd(t, "completion", "agents"); code != 0 || out != "helper\nbob\n" || errOut != "" {
		t.Errorf("without a configuration: exit %d, output %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "sidekicks", "config.yaml")); err == nil {
		t.Error("listing the agents created the default configuration")
	}
}
