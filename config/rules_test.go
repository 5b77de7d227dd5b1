package config

import (
	"strings"
	"testing"
)

func TestUniqueAgentNames(t *testing.T) {
	_, d := parseText(t, "version: 1\nagents:\n  - name: alice\n    command: /bin/sh\n  - name: bob\n    command: /bin/sh\n  - name: alice\n    command: /bin/sh\n")
	wantMessages(t, messages(d),
		`line 7 — agents[2].name: "alice" is already the name of agents[0] (line 3); each agent needs its own name`)
	t.Setenv("LANG", "fr_FR.UTF-8")
	_, d = parseIn(t, t.TempDir(), "version: 1\nagents:\n  - name: alice\n    command: /bin/sh\n  - name: alice\n    command: /bin/sh\n")
	wantMessages(t, messages(d),
		"ligne 5 — agents[1].name : « alice » est déjà le nom de agents[0] (ligne 3) ; chaque agent doit avoir son propre nom")
}

func TestUniqueChannelNamesWithoutCase(t *testing.T) {
	_, d := parseText(t, "version: 1\nagents: []\nchannels:\n  - name: Général\n  - name: autre\n  - name: GÉNÉRAL\n")
	wantMessages(t, messages(d),
		`line 6 — channels[2].name: channels[0] (line 4) is already named "Général"; channel names must differ, without regard to case`)
	t.Setenv("LANG", "fr_FR.UTF-8")
	_, d = parseIn(t, t.TempDir(), "version: 1\nagents: []\nchannels:\n  - name: général\n  - name: GÉNÉRAL\n")
	wantMessages(t, messages(d),
		"ligne 5 — channels[1].name : channels[0] (ligne 4) s'appelle déjà « général » ; les noms de channels doivent être différents, sans tenir compte de la casse")
}

func TestChannelKey(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Général", "GÉNÉRAL", true},
		{"général", "generale", false},
		{"Straße", "STRASSE", false}, // simple folding only, as strings.EqualFold
		{"K", "\u212a", true},        // Kelvin sign
		{"ſ", "S", true},             // long s
		{"a b", "A B", true},
		{"ab", "a b", false},
	} {
		if got := ChannelKey(c.a) == ChannelKey(c.b); got != c.same {
			t.Errorf("%q and %q: same = %v, want %v", c.a, c.b, got, c.same)
		}
		if c.same != stringsEqualFold(c.a, c.b) {
			t.Errorf("test case %q %q disagrees with strings.EqualFold", c.a, c.b)
		}
	}
}

func TestChannelMembersExist(t *testing.T) {
	const agents = "version: 1\nagents:\n  - {name: alice, command: /bin/sh}\n  - {name: garfield, command: /bin/sh}\n"
	for _, c := range []struct {
		name, doc, en, fr string
	}{
		{"near", agents + "channels:\n  - name: x\n    agents: [alice, garfeild]\n",
			`line 7 — channels[0].agents[1]: there is no agent named "garfeild"; did you mean "garfield"?`,
			"ligne 7 — channels[0].agents[1] : aucun agent ne s'appelle « garfeild » ; vouliez-vous dire « garfield » ?"},
		{"far", agents + "channels:\n  - name: x\n    agents:\n      - alice\n      - zoe\n",
			`line 9 — channels[0].agents[1]: there is no agent named "zoe"; the agents are "alice", "garfield"`,
			"ligne 9 — channels[0].agents[1] : aucun agent ne s'appelle « zoe » ; les agents sont « alice », « garfield »"},
		{"no agents", "version: 1\nagents: []\nchannels:\n  - name: x\n    agents: [zoe]\n",
			`line 5 — channels[0].agents[0]: there is no agent named "zoe": add it to agents first`,
			"ligne 5 — channels[0].agents[0] : aucun agent ne s'appelle « zoe » : ajoutez-le d'abord à agents"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", t.TempDir())
			t.Setenv("LANG", "C")
			_, d := parseIn(t, t.TempDir(), c.doc)
			wantMessages(t, messages(d), c.en)
			t.Setenv("LANG", "fr_FR.UTF-8")
			_, d = parseIn(t, t.TempDir(), c.doc)
			wantMessages(t, messages(d), c.fr)
		})
	}
}

func TestCommandNotFoundIsAWarning(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("LANG", "C")
	t.Setenv("PATH", t.TempDir())
	cfg, d := parseIn(t, dir, "version: 1\nagents:\n  - name: a\n    command: mm\n  - name: b\n    command: ./bin/agent\n")
	if cfg == nil {
		t.Fatalf("warnings alone must not stop the load: %v", messages(d))
	}
	wantMessages(t, messages(d),
		`line 4 — agents[0].command: "mm" was not found in PATH; install it, or write its full path`,
		`line 6 — agents[1].command: "./bin/agent" was not found (`+dir+`/bin/agent); check the path: a relative path starts from the configuration's folder`)
	for _, x := range d {
		if !x.Warning {
			t.Errorf("not a warning: %s", x.Message)
		}
	}
	if cfg.Agents[0].CommandPath != "" || cfg.Agents[1].CommandPath != "" {
		t.Errorf("CommandPath of missing programs: %q %q", cfg.Agents[0].CommandPath, cfg.Agents[1].CommandPath)
	}
	t.Setenv("LANG", "fr_FR.UTF-8")
	_, d = parseIn(t, dir, "version: 1\nagents:\n  - name: a\n    command: mm\n  - name: b\n    command: ./bin/agent\n")
	wantMessages(t, messages(d),
		"ligne 4 — agents[0].command : « mm » est introuvable dans le PATH ; installez-le, ou écrivez son chemin complet",
		"ligne 6 — agents[1].command : « ./bin/agent » est introuvable ("+dir+"/bin/agent) ; vérifiez le chemin : un chemin relatif part du dossier de la configuration")
}

func TestRulesAndSchemaTogether(t *testing.T) {
	_, d := parseText(t, "version: 1\nagents:\n  - name: a\n    command: mm\n    comand: mm\n  - name: a\n    command: /bin/sh\nchannels:\n  - name: x\n    agents: [b]\n")
	wantMessages(t, messages(d),
		`line 4 — agents[0].command: "mm" was not found in PATH; install it, or write its full path`,
		`line 5 — agents[0].comand: unknown key "comand"; did you mean "command"?`,
		`line 6 — agents[1].name: "a" is already the name of agents[0] (line 3); each agent needs its own name`,
		`line 10 — channels[0].agents[0]: there is no agent named "b"; the agents are "a"`)
}

func stringsEqualFold(a, b string) bool { return strings.EqualFold(a, b) }
