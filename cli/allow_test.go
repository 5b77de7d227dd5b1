package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

func TestAllowCatalogueIsComplete(t *testing.T) {
	for _, p := range allowCatalogue.Problems(allowNoFile) {
		t.Error(p)
	}
}

// markerAgents writes a project agents file of two agents, "Helper Bot" (@helper-bot)
// and "Other Bot" (@other-bot), each a plain agent whose command first writes its
// environment into a marker file: the marker's presence says that the project's command
// ran. It returns the markers.
func markerAgents(t *testing.T, dir string) (helper, other string) {
	t.Helper()
	helper, other = filepath.Join(dir, "helper ran"), filepath.Join(dir, "other ran")
	block := func(name, marker string) string {
		return fmt.Sprintf("[[agent]]\nname = %q\ncommand = \"/bin/sh\"\nargs = [\"-c\", %q, %q]\nenv = { SIDEKICKS_TEST_AGENT = \"noload\" }\n",
			name, fmt.Sprintf("env > %q && exec \"$0\" -test.run='^$'", marker), testagents.Binary(t))
	}
	writeFile(t, filepath.Join(dir, ".sidekicks", "acp.toml"), block("Helper Bot", helper)+block("Other Bot", other))
	return helper, other
}

// isolateHome gives the test a home and a configuration folder of its own.
func isolateHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	return home
}

func absent(t *testing.T, what, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s: the project's command ran (%s exists)", what, filepath.Base(path))
	}
}

// A cloned repository's agents file runs nothing before the user allows it, and never
// replaces an agent of the configuration.
func TestAskRunsNoProjectAgentBeforeItIsAllowed(t *testing.T) {
	dir := testagents.Env(t)
	isolateHome(t)
	t.Setenv("SIDEKICKS_TEST_SECRET", "s3cret")
	cfg := testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "helper-bot", dir, filepath.Join(dir, "state"), ""))
	helper, other := markerAgents(t, dir)
	notAllowed := "sidekicks ask: this folder defines 2 agents in .sidekicks/acp.toml — not allowed; review and allow it in Sidekicks (or `sidekicks allow`)\n"

	code, out, errOut := askCmd(t, "--config", cfg, "helper-bot", "/echo", "mine")
	if code != 0 || out != "mine\n" || !strings.HasPrefix(errOut, notAllowed) {
		t.Errorf("same name, before allow: exit %d, stdout %q, stderr %q; want the configured agent and %q", code, out, errOut, notAllowed)
	}
	absent(t, "same name, before allow", helper)
	code, _, errOut = askCmd(t, "--config", cfg, "other-bot", "hi")
	if code != 2 || !strings.HasPrefix(errOut, notAllowed) {
		t.Errorf("project agent, before allow: exit %d, stderr %q; want 2 (unknown agent)", code, errOut)
	}
	absent(t, "project agent, before allow", other)

	// Refused at the question: still not allowed.
	allowStdin = strings.NewReader("n\n")
	t.Cleanup(func() { allowStdin = os.Stdin })
	code, out, _ = runCmd(t, "allow", "--config", cfg)
	for _, want := range []string{"@helper-bot (\"Helper Bot\")", `agent "Helper Bot" is not added: the configuration already has an agent named @helper-bot`, "  command:   /bin/sh -c ", "  workspace: " + dir, "  env:       SIDEKICKS_TEST_AGENT=noload", "Allow these agents to run? [y/N] not allowed"} {
		if !strings.Contains(out, want) {
			t.Errorf("allow shows no %q:\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("allow answered n: exit %d, want 1", code)
	}
	if code, _, errOut := askCmd(t, "--config", cfg, "other-bot", "hi"); code != 2 || !strings.HasPrefix(errOut, notAllowed) {
		t.Errorf("after a refusal: exit %d, stderr %q", code, errOut)
	}

	allowStdin = strings.NewReader("y\n")
	if code, out, errOut := runCmd(t, "allow"); code != 0 || !strings.Contains(out, "allowed "+filepath.Join(dir, config.ProjectFile)) {
		t.Fatalf("allow answered y: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// The configuration's agent is kept, and the collision is said.
	code, out, errOut = askCmd(t, "--config", cfg, "helper-bot", "/echo", "mine")
	if code != 0 || out != "mine\n" || !strings.Contains(errOut, `agent "Helper Bot" is not added: the configuration already has an agent named @helper-bot`) {
		t.Errorf("same name, allowed: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	absent(t, "same name, allowed", helper)
	marked := "sidekicks ask: [project] @other-bot is an agent of the project, defined in " + config.DisplayPath(filepath.Join(dir, config.ProjectFile)) + "\n"
	if code, out, errOut := askCmd(t, "--config", cfg, "other-bot", "hi"); code != 0 || out != "ok\n" || !strings.Contains(errOut, marked) {
		t.Errorf("project agent, allowed: exit %d, stdout %q, stderr %q; want it marked %q", code, out, errOut, marked)
	}
	env, err := os.ReadFile(other)
	if err != nil {
		t.Errorf("the allowed project agent did not run its command: %v", err)
	}
	// It inherits a minimal environment, plus its own env.
	if !strings.Contains(string(env), "SIDEKICKS_TEST_AGENT=noload\n") || !strings.Contains(string(env), "PATH=") || strings.Contains(string(env), "s3cret") {
		t.Errorf("the project agent's environment:\n%s", env)
	}

	// A change asks again.
	f, err := os.OpenFile(filepath.Join(dir, config.ProjectFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("# changed\n")
	f.Close()
	if code, _, errOut := askCmd(t, "--config", cfg, "other-bot", "hi"); code != 2 || !strings.HasPrefix(errOut, notAllowed) {
		t.Errorf("changed file: exit %d, stderr %q; want it not allowed", code, errOut)
	}
	if code, out, _ := runCmd(t, "allow", "--yes"); code != 0 || strings.Contains(out, "[y/N]") {
		t.Errorf("allow --yes: exit %d, stdout %q", code, out)
	}
	if code, out, _ := runCmd(t, "allow"); code != 0 || !strings.Contains(out, "is already allowed") {
		t.Errorf("allow again: exit %d, stdout %q", code, out)
	}
}

func TestAllowWithoutAFile(t *testing.T) {
	dir := testagents.Env(t)
	if code, _, errOut := runCmd(t, "allow", "--yes"); code != 1 || errOut != "sidekicks allow: there is no .sidekicks/acp.toml in "+dir+"\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestCheckSaysAProjectFileIsNotAllowed(t *testing.T) {
	dir := testagents.Env(t)
	isolateHome(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "alice", dir, filepath.Join(dir, "state"), ""))
	markerAgents(t, dir)
	notAllowed := "warning: this folder defines 2 agents in .sidekicks/acp.toml — not allowed"
	if code, out, _ := runCmd(t, "check", "--config", cfg); code != 0 || !strings.Contains(out, notAllowed) {
		t.Errorf("before allow: exit %d, stdout %q; want 0 and %q", code, out, notAllowed)
	}
	if code, _, errOut := runCmd(t, "allow", "--yes"); code != 0 {
		t.Fatalf("allow: exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := runCmd(t, "check", "--config", cfg); code != 0 || strings.Contains(out, "not allowed") {
		t.Errorf("after allow: exit %d, stdout %q", code, out)
	}
}

// allow speaks the language of LANG without a configuration, and creates none.
func TestAllowInFrenchCreatesNoConfiguration(t *testing.T) {
	dir := testagents.Env(t)
	home := isolateHome(t)
	t.Setenv("LANG", "fr_FR.UTF-8")
	markerAgents(t, dir)
	allowStdin = strings.NewReader("oui\n")
	t.Cleanup(func() { allowStdin = os.Stdin })
	code, out, errOut := runCmd(t, "allow")
	path := filepath.Join(dir, config.ProjectFile)
	for _, want := range []string{path + " définit ces agents ; l'autoriser permet à Sidekicks de les lancer :\n", "@other-bot (« Other Bot »)", "    commande :  /bin/sh -c", "    dossier :   " + dir, "Autoriser ces agents à s'exécuter ? [o/N] " + path + " est autorisé ; une modification du fichier devra être autorisée à nouveau\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("allow wrote %s", p)
		}
		return nil
	})
}
