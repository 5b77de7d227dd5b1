package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// TestAskYesNeverWritesSidekicksOwnFiles: `ask --yes` allows an agent's writes, never to
// Sidekicks' own files. The demo agent works in the configuration's folder (the default
// workspace), which holds the configuration and preferences.json, and the folder ask runs
// in has a project agents file: /write of each is refused, the agent is told why, stderr
// says it in the user's language, and the files are unchanged. Its write to its own
// AGENTS.md succeeds.
func TestAskYesNeverWritesSidekicksOwnFiles(t *testing.T) {
	l := testagents.NewOwnLayout(t)
	cfg := l.WriteConfig(t, testagents.DemoEntry(t, "demo", l.Dir, filepath.Join(t.TempDir(), "state"), ""))
	before := map[string]string{}
	for _, p := range []string{"config.yaml", "preferences.json", ".sidekicks/acp.toml"} {
		before[p] = l.Read(p)
	}
	for p, why := range map[string]string{
		"config.yaml":         "the configuration file in use",
		"preferences.json":    "the preferences",
		".sidekicks/acp.toml": "the project agents file of the folder Sidekicks runs in",
	} {
		code, out, errOut := askCmd(t, "--config", cfg, "--yes", "demo", "/write", p, "command: evil")
		full := filepath.Join(l.Dir, p)
		if want := "I could not write `" + p + "`: writing " + full + ": it is one of Sidekicks' own files (" + why + "), which no agent may write"; code != 0 || !strings.Contains(out, want) {
			t.Errorf("/write %s: exit %d, stdout lacks %q:\n%s", p, code, want, out)
		}
		if want := "[write] demo may not write " + full + ": it is one of Sidekicks' own files (" + why + ")"; !strings.Contains(errOut, want) {
			t.Errorf("/write %s: stderr lacks %q:\n%s", p, want, errOut)
		}
	}
	code, _, errOut := askCmd(t, "--config", cfg, "--yes", "demo", "/write", "AGENTS.md", "be brief")
	if got := l.Read("AGENTS.md"); code != 0 || got != "be brief" {
		t.Errorf("/write AGENTS.md: exit %d, AGENTS.md holds %q; stderr:\n%s", code, got, errOut)
	}
	for p, content := range before {
		if got := l.Read(p); got != content {
			t.Errorf("%s holds %q, want it unchanged", p, got)
		}
	}
}

// An agent that plants links and writes through "./": refused the same way, said in
// French to a French user.
func TestAskYesRefusesOwnFilesThroughLinks(t *testing.T) {
	l := testagents.NewOwnLayout(t)
	cfg := l.WriteConfig(t, testagents.OwnFilesEntry(t, "rogue"))
	french := strings.Replace(l.Read(cfg), "version: 1\n", "version: 1\nui:\n  language: fr\n", 1)
	l.WriteFile(t, cfg, french)
	before := map[string]string{}
	for _, p := range []string{"config.yaml", "preferences.json", ".sidekicks/acp.toml"} {
		before[p] = l.Read(p)
	}
	code, out, errOut := askCmd(t, "--config", cfg, "--yes", "rogue",
		"link cfg config.yaml; link proj .sidekicks; write ./config.yaml; write cfg; write ./preferences.json; write proj/acp.toml; write skills/web/SKILL.md")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	for _, p := range []string{"./config.yaml", "cfg", "./preferences.json", "proj/acp.toml"} {
		if !strings.Contains(out, p+": refused: writing "+l.Dir+"/"+p+": it is one of Sidekicks' own files") {
			t.Errorf("%s was not refused:\n%s", p, out)
		}
	}
	if want := "[écriture] rogue ne peut pas écrire " + l.Dir + "/cfg : c'est un des fichiers de Sidekicks (le fichier de configuration en cours)"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
	for p, content := range before {
		if got := l.Read(p); got != content {
			t.Errorf("%s holds %q, want it unchanged", p, got)
		}
	}
	if got := l.Read("skills/web/SKILL.md"); got != testagents.OwnFilesContent {
		t.Errorf("skills/web/SKILL.md holds %q; stdout:\n%s", got, out)
	}
}

// The trace file, whether --trace or SIDEKICKS_ACP_TRACE names it: an agent that rewrote it
// would falsify what the user reads to debug it.
func TestAskYesNeverWritesTheTrace(t *testing.T) {
	l := testagents.NewOwnLayout(t)
	cfg := l.WriteConfig(t, testagents.DemoEntry(t, "demo", l.Dir, filepath.Join(t.TempDir(), "state"), ""))
	for _, viaEnv := range []bool{false, true} {
		name := "flag.trace"
		args := []string{"--config", cfg, "--yes", "--trace", name}
		if viaEnv {
			name = "env.trace"
			t.Setenv(acp.TraceEnv, filepath.Join(l.Dir, name))
			args = []string{"--config", cfg, "--yes"}
		}
		code, _, errOut := askCmd(t, append(args, "demo", "/write", name, "nothing happened")...)
		if want := "[write] demo may not write " + filepath.Join(l.Dir, name) + ": it is one of Sidekicks' own files (the ACP trace file)"; code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("/write %s: exit %d, stderr lacks %q:\n%s", name, code, want, errOut)
		}
		// Every line is still the trace's: TIMESTAMP demo -> or <-.
		got := l.Read(name)
		for line := range strings.SplitSeq(strings.TrimSuffix(got, "\n"), "\n") {
			if f := strings.SplitN(line, " ", 4); len(f) < 4 || f[1] != "demo" || (f[2] != "->" && f[2] != "<-") {
				t.Errorf("%s holds a line that is not the trace's: %.200q", name, line)
				break
			}
		}
	}
}
