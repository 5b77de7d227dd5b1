package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestDefaults(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LANG", "C")
	t.Setenv("PATH", t.TempDir())
	cfg, d := parseIn(t, dir, "version: 1\nagents:\n  - name: alice\n    command: /bin/sh\n")
	if cfg == nil {
		t.Fatalf("not loaded: %v", d)
	}
	if len(d) != 0 {
		t.Errorf("unexpected diagnostics: %v", messages(d))
	}
	want := &Config{
		Path:     filepath.Join(dir, "config.yaml"),
		Version:  1,
		UI:       UI{Theme: "system", Language: i18n.English},
		Limits:   Limits{MaxRunningAgents: 2, StopIdleAgentsAfter: 10 * time.Minute},
		Channels: []Channel{},
		Agents: []Agent{{
			Name:        "alice",
			Title:       "alice",
			Command:     "/bin/sh",
			CommandPath: "/bin/sh",
			Args:        []string{},
			Workspace:   dir,
			Runtime: Runtime{
				Type:          "local",
				WorkspacePath: dir,
				Lifecycle:     Lifecycle{Folder: dir},
			},
			Source: filepath.Join(dir, "config.yaml"),
			Line:   3,
		}},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got  %+v\nwant %+v", cfg, want)
	}
}

func TestEveryKey(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("LANG", "C")
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	for _, name := range []string{"docker", "unload"} {
		writeExecutable(t, filepath.Join(bin, name))
	}
	writeExecutable(t, filepath.Join(dir, "bin", "scout"))
	cfg, d := parseIn(t, dir, `version: 1
ui:
  theme: dark
  language: fr
limits:
  maxRunningAgents: 4
  stopIdleAgentsAfter: 1h30m
agents:
  - name: scout_2
    title: Scout
    icon: S
    description: Looks things up
    command: ./bin/scout
    args: [--acp, "", --config, scout.yaml]
    env:
      DOCKER_HOST: ssh://build-box
      EMPTY: ""
    afterStop: [unload, scout_2, "--now"]
    workspace: ~/agents/scout
    protect: [AGENTS.md, "skills/**"]
    runtime:
      type: container
      container: team-scout-1
      workspacePath: /work/scout
      lifecycle:
        folder: team
        create: [docker, compose, up, -d]
        stop: [./stop.sh, scout]
        remove: [missing-program, rm]
channels:
  - name: Recherche
    description: Where scouts report
    agents: [scout_2]
`)
	if cfg == nil || len(d) != 0 {
		t.Fatalf("diagnostics: %v", messages(d))
	}
	want := &Config{
		Path:    filepath.Join(dir, "config.yaml"),
		Version: 1,
		UI:      UI{Theme: "dark", Language: i18n.French},
		Limits:  Limits{MaxRunningAgents: 4, StopIdleAgentsAfter: 90 * time.Minute},
		Agents: []Agent{{
			Name:        "scout_2",
			Title:       "Scout",
			Icon:        "S",
			Description: "Looks things up",
			Command:     "./bin/scout",
			CommandPath: filepath.Join(dir, "bin", "scout"),
			Args:        []string{"--acp", "", "--config", "scout.yaml"},
			Env:         map[string]string{"DOCKER_HOST": "ssh://build-box", "EMPTY": ""},
			AfterStop:   []string{filepath.Join(bin, "unload"), "scout_2", "--now"},
			Workspace:   filepath.Join(home, "agents", "scout"),
			Protect:     []string{"AGENTS.md", "skills/**"},
			Runtime: Runtime{
				Type:          "container",
				Container:     "team-scout-1",
				WorkspacePath: "/work/scout",
				Lifecycle: Lifecycle{
					Folder: filepath.Join(dir, "team"),
					Create: []string{filepath.Join(bin, "docker"), "compose", "up", "-d"},
					Stop:   []string{filepath.Join(dir, "stop.sh"), "scout"},
					Remove: []string{"missing-program", "rm"},
				},
			},
			Source: filepath.Join(dir, "config.yaml"),
			Line:   9,
		}},
		Channels: []Channel{{Name: "Recherche", Description: "Where scouts report", Agents: []string{"scout_2"}}},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got  %+v\nwant %+v", cfg, want)
	}
}

func TestSbxDefaults(t *testing.T) {
	cfg, d := parseText(t, "version: 1\nagents:\n  - name: milo\n    command: /bin/sh\n    workspace: /w/milo\n    runtime: {type: sbx, sandbox: milo-sbx}\n")
	if cfg == nil {
		t.Fatalf("diagnostics: %v", messages(d))
	}
	r := cfg.Agents[0].Runtime
	want := Runtime{Type: "sbx", Sandbox: "milo-sbx", WorkspacePath: "/w/milo", Lifecycle: Lifecycle{Folder: "/w/milo"}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("runtime = %+v, want %+v", r, want)
	}
}

func TestStopIdleAgentsAfter(t *testing.T) {
	for value, want := range map[string]time.Duration{
		"0":        0,
		`"0"`:      0,
		"0s":       0,
		"30s":      30 * time.Second,
		"10m":      10 * time.Minute,
		"1h30m":    90 * time.Minute,
		"1.5h":     90 * time.Minute,
		"250ms":    250 * time.Millisecond,
		"2h45m10s": 2*time.Hour + 45*time.Minute + 10*time.Second,
	} {
		cfg, d := parseText(t, "version: 1\nagents: []\nlimits:\n  stopIdleAgentsAfter: "+value+"\n")
		if cfg == nil {
			t.Errorf("%s: %v", value, messages(d))
			continue
		}
		if cfg.Limits.StopIdleAgentsAfter != want {
			t.Errorf("stopIdleAgentsAfter: %s = %v, want %v", value, cfg.Limits.StopIdleAgentsAfter, want)
		}
	}
}

func TestNumbersWrittenOtherwise(t *testing.T) {
	cfg, d := parseText(t, "version: 1.0\nagents: []\nlimits: {maxRunningAgents: 0x10}\n")
	if cfg == nil {
		t.Fatalf("diagnostics: %v", messages(d))
	}
	if cfg.Version != 1 || cfg.Limits.MaxRunningAgents != 16 {
		t.Errorf("version %d, maxRunningAgents %d; want 1, 16", cfg.Version, cfg.Limits.MaxRunningAgents)
	}
	cfg, _ = parseText(t, "version: 1\nagents: []\nlimits: {maxRunningAgents: 100000000000000000000}\n")
	if cfg == nil || cfg.Limits.MaxRunningAgents < 1<<30 {
		t.Errorf("a huge limit should load as a huge limit: %+v", cfg)
	}
}

func TestSpecExample(t *testing.T) {
	data, err := os.ReadFile("../examples/test-agents.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("LANG", "C")
	t.Setenv("PATH", t.TempDir())
	path := filepath.Join(t.TempDir(), "test-agents.yaml")
	cfg, d := Parse(path, data)
	checkInvariants(t, path, cfg, d)
	if cfg == nil {
		t.Fatalf("the specification's example does not load: %v", messages(d))
	}
	// mm and sbx are not installed: three warnings, in French (ui.language: fr).
	wantMessages(t, messages(d),
		"ligne 16 — agents[0].command : « mm » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
		"ligne 23 — agents[1].command : « mm » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
		"ligne 29 — agents[2].command : « sbx » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
	)
	for _, x := range d {
		if !x.Warning {
			t.Errorf("not a warning: %s", x.Message)
		}
	}
	dir := filepath.Dir(path)
	if len(cfg.Agents) != 3 || len(cfg.Channels) != 2 {
		t.Fatalf("%d agents, %d channels", len(cfg.Agents), len(cfg.Channels))
	}
	a := cfg.Agents[2]
	if a.Name != "translator-sbx" || a.Workspace != filepath.Join(dir, "agents/translator/workspace") ||
		a.Runtime.Type != "sbx" || a.Runtime.Sandbox != "mm-translator" || a.Runtime.WorkspacePath != a.Workspace ||
		a.Title != "Traducteur (sandbox)" || a.Line != 27 || a.CommandPath != "" {
		t.Errorf("third agent: %+v", a)
	}
	if cfg.Agents[0].Icon != "👩" || cfg.Agents[0].Description != "Questions simples, sans outils" {
		t.Errorf("first agent: %+v", cfg.Agents[0])
	}
	if c := cfg.Channels[0]; c.Name != "général" || !reflect.DeepEqual(c.Agents, []string{"alice"}) {
		t.Errorf("first channel: %+v", c)
	}
	if cfg.UI.Language != i18n.French {
		t.Errorf("language %q", cfg.UI.Language)
	}
}

// TestSchemaTestdata loads every file of the schema's test data: the valid ones load
// (warnings allowed), the invalid ones give errors in words, not the schema's.
func TestSchemaTestdata(t *testing.T) {
	t.Setenv("LANG", "C")
	t.Setenv("PATH", t.TempDir())
	valid, _ := filepath.Glob("../schema/testdata/valid/*.yaml")
	invalid, _ := filepath.Glob("../schema/testdata/invalid/*.yaml")
	if len(valid) == 0 || len(invalid) == 0 {
		t.Fatal("no test data")
	}
	for _, f := range append(valid, invalid...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "config.yaml")
		cfg, d := Parse(path, data)
		checkInvariants(t, path, cfg, d)
		isValid := strings.Contains(f, "/valid/")
		if isValid && cfg == nil {
			t.Errorf("%s: valid file refused: %v", f, messages(d))
		}
		if !isValid && !d.HasErrors() {
			t.Errorf("%s: invalid file accepted", f)
		}
		for _, m := range messages(d) {
			for _, raw := range []string{"jsonschema", "want ", "got ", "minLength", "anyOf", "additional properties", "false schema", "yaml:"} {
				if strings.Contains(m, raw) {
					t.Errorf("%s: message %q shows %q", f, m, raw)
				}
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	t.Setenv("LANG", "C")
	dir := t.TempDir()
	for _, c := range []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.yaml"), "the file does not exist; check the path, or create it"},
		{"folder", dir, "this is a folder, not a configuration file"},
	} {
		cfg, d := Load(c.path)
		if cfg != nil || len(d) != 1 || d[0].Message != c.want || d[0].File != c.path {
			t.Errorf("%s: got %v %+v, want the message %q", c.name, cfg, d, c.want)
		}
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("version: 1\nagents: []\n"+strings.Repeat("#", maxFileSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, d := Load(big); cfg != nil || len(d) != 1 || !strings.Contains(d[0].Message, "too large") {
		t.Errorf("large file: %v %v", cfg, messages(d))
	}
	if _, d := Parse(big, []byte(strings.Repeat("#", maxFileSize+1))); len(d) != 1 || d[0].Line != 1 || !strings.Contains(d[0].Message, "too large") {
		t.Errorf("Parse of large data: %v", messages(d))
	}
	t.Setenv("LANG", "fr_FR.UTF-8")
	if _, d := Load(filepath.Join(dir, "nope.yaml")); len(d) != 1 || d[0].Message != "le fichier n'existe pas ; vérifiez le chemin, ou créez-le" {
		t.Errorf("missing file in French: %v", messages(d))
	}
}

func TestDocumentShapes(t *testing.T) {
	for _, c := range []struct{ doc, en string }{
		{"", "line 1 — the file is empty: a configuration needs at least version: 1 and agents: []"},
		{"# only a comment\n", "line 1 — the file is empty: a configuration needs at least version: 1 and agents: []"},
		{"~\n", "line 1 — the file is empty: a configuration needs at least version: 1 and agents: []"},
		{"- version: 1\n", "line 1 — the file must be a mapping of keys (version: 1, agents: …), not a list"},
		{"\n\nhello\n", "line 3 — the file must be a mapping of keys (version: 1, agents: …), not text"},
		{"version: 1\nagents: []\n---\nversion: 1\n", "line 3 — a second YAML document starts here: a configuration is one document; remove this --- line and what follows it"},
		{"version: 1\nversion: 1\nagents: []\n", "line 2 — version: the key \"version\" is already given at line 1; keep only one"},
		{"version: 1\nagents:\n  - &a {name: a, command: /bin/sh}\n  - <<: *a\n    name: b\n", "line 4 — agents[1].<<: merge keys (<<) are not supported; write the keys out"},
		{"version: 1\n? [a]\n: b\nagents: []\n", "line 2 — a key must be a word, not a list or a mapping"},
		{"version: 1\nagents: &a [*a]\n", "line 2 — agents[0]: the alias *a contains itself; an alias can only repeat a value defined before it"},
		{"version: 1\nagents:\n  - &a {name: a, name: b}\n  - *a\n  - *a\n", "line 3 — agents[0].name: the key \"name\" is already given at line 3; keep only one"},
	} {
		_, d := parseText(t, c.doc)
		wantMessages(t, messages(d), c.en)
	}
}

func TestAliasBomb(t *testing.T) {
	doc := "version: 1\nagents: []\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
	_, d := parseText(t, doc)
	if len(d) != 1 || !strings.Contains(d[0].Message, "too many values") {
		t.Errorf("got %v", messages(d))
	}
}

func TestAliasesAreFollowed(t *testing.T) {
	cfg, d := parseText(t, "version: 1\nagents:\n  - name: a\n    command: /bin/sh\n    args: &args [-acp]\n  - name: b\n    command: /bin/sh\n    args: *args\n")
	if cfg == nil {
		t.Fatalf("%v", messages(d))
	}
	if !reflect.DeepEqual(cfg.Agents[1].Args, []string{"-acp"}) {
		t.Errorf("args through an alias: %q", cfg.Agents[1].Args)
	}
}

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestParseConcurrently loads from several goroutines at once, as the application does
// when a save and `sidekicks check` meet; the race detector checks the shared caches.
func TestParseConcurrently(t *testing.T) {
	t.Setenv("LANG", "C")
	path := filepath.Join(t.TempDir(), "config.yaml")
	doc := []byte(strings.Replace(specFile, "%s", "en", 1))
	done := make(chan Diagnostics)
	for range 8 {
		go func() {
			_, d := Parse(path, doc)
			done <- d
		}()
	}
	for range 8 {
		if d := <-done; len(d) != 3 {
			t.Errorf("got %d diagnostics, want 3: %v", len(d), messages(d))
		}
	}
}
