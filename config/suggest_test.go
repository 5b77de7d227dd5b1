package config

import (
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	agentKeys := []string{"afterStop", "args", "command", "description", "env", "icon", "name", "protect", "runtime", "title", "workspace"}
	for word, want := range map[string]string{
		"comand":      "command",
		"commnd":      "command",
		"Command":     "command",
		"titel":       "title",
		"nmae":        "name",
		"nme":         "name",
		"arg":         "args",
		"workspaces":  "workspace",
		"work_space":  "workspace",
		"afterstop":   "afterStop",
		"after_stop":  "afterStop",
		"desc":        "description",
		"environment": "",
		"x":           "",
		"image":       "",
		"zzzzzz":      "",
		"":            "",
	} {
		if got := nearest(word, agentKeys); got != want {
			t.Errorf("nearest(%q) = %q, want %q", word, got, want)
		}
	}
	if got := nearest("ui", []string{"x"}); got != "" {
		t.Errorf("a two-letter word must not suggest a one-letter key: %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"a", "", 1},
		{"comand", "command", 1},
		{"titel", "title", 1},
		{"kitten", "sitting", 3},
		{"ab", "ba", 1},
		{"é", "e", 1},
	} {
		if got := editDistance([]rune(c.a), []rune(c.b)); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	long := []rune(strings.Repeat("a", 10_000))
	if got := editDistance(long, []rune("command")); got < 3 {
		t.Errorf("a very long word is far from every key: %d", got)
	}
}

func TestUnknownKeyEverywhere(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"version: 1\nagents: []\nagnets: []\n", `line 3 — agnets: unknown key "agnets"; did you mean "agents"?`},
		{"version: 1\nagents: []\nui: {them: dark}\n", `line 3 — ui.them: unknown key "them"; did you mean "theme"?`},
		{"version: 1\nagents: []\nlimits: {maxRunningAgent: 3}\n", `line 3 — limits.maxRunningAgent: unknown key "maxRunningAgent"; did you mean "maxRunningAgents"?`},
		{"version: 1\nagents:\n  - {name: a, command: /bin/sh, runtime: {type: sbx, sandbox: s, lifecylce: {}}}\n", `line 3 — agents[0].runtime.lifecylce: unknown key "lifecylce"; did you mean "lifecycle"?`},
		{"version: 1\nagents:\n  - {name: a, command: /bin/sh, runtime: {type: sbx, sandbox: s, lifecycle: {crate: [x]}}}\n", `line 3 — agents[0].runtime.lifecycle.crate: unknown key "crate"; did you mean "create"?`},
		{"version: 1\nagents: []\nchannels:\n  - name: x\n    agent: []\n", `line 5 — channels[0].agent: unknown key "agent"; did you mean "agents"?`},
		{"version: 1\nagents: []\nchannels:\n  - name: x\n    members: []\n", `line 5 — channels[0].members: unknown key "members"; the keys allowed here: agents, description, name`},
	} {
		_, d := parseText(t, c.doc)
		wantMessages(t, messages(d), c.want)
	}
}
