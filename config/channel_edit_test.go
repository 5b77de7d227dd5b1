package config

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// channelsFile is a configuration whose channels carry comments, blank lines between them
// and a section after them, which every change must keep.
const channelsFile = `version: 1
agents:
  - name: alice
    command: /bin/sh

# Channels below.
channels:
  # The team's room.
  - name: général   # where everyone is
    description: "Say hello"
    agents: [alice]
    # its members are added at start

  - name: 'ops'
    agents:
      - alice

  - name: "Lab \u00e9"

# The screen.
ui:
  theme: dark
`

func TestRenameChannelInFile(t *testing.T) {
	t.Setenv("LANG", "C")
	for _, tt := range []struct{ name, old, new, want string }{
		{"plain", "général", "team", strings.Replace(channelsFile, "name: général   #", "name: team   #", 1)},
		{"case aside", "GÉNÉRAL", "Team", strings.Replace(channelsFile, "name: général   #", "name: Team   #", 1)},
		{"single quoted", "ops", "ops-2", strings.Replace(channelsFile, "name: 'ops'", `name: "ops-2"`, 1)},
		{"double quoted, escaped", "Lab é", "Lab 2", strings.Replace(channelsFile, `name: "Lab \u00e9"`, `name: "Lab 2"`, 1)},
		{"a name YAML would read otherwise", "général", "true", strings.Replace(channelsFile, "name: général   #", `name: "true"   #`, 1)},
		{"a name with a comment mark", "général", "a #b", strings.Replace(channelsFile, "name: général   #", `name: "a #b"   #`, 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := newConfigFile(t, channelsFile)
			if err := RenameChannelInFile(path, tt.old, tt.new); err != nil {
				t.Fatal(err)
			}
			if got := fileText(t, path); got != tt.want {
				t.Errorf("file:\n%s\nwant:\n%s", got, tt.want)
			}
			cfg, diags := Load(path)
			if diags.HasErrors() || !declares(cfg, tt.new) {
				t.Errorf("loaded: %v, channels %+v", diags, cfg.Channels)
			}
		})
	}
}

func TestRemoveChannelFromFile(t *testing.T) {
	t.Setenv("LANG", "C")
	for _, tt := range []struct{ name, channel, want string }{
		{"first, with its comments", "général", strings.Replace(channelsFile, `  # The team's room.
  - name: général   # where everyone is
    description: "Say hello"
    agents: [alice]
    # its members are added at start

`, "", 1)},
		{"middle", "OPS", strings.Replace(channelsFile, `  - name: 'ops'
    agents:
      - alice

`, "", 1)},
		{"last", "lab é", strings.Replace(channelsFile, `

  - name: "Lab \u00e9"
`, "\n", 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := newConfigFile(t, channelsFile)
			if err := RemoveChannelFromFile(path, tt.channel); err != nil {
				t.Fatal(err)
			}
			if got := fileText(t, path); got != tt.want {
				t.Errorf("file:\n%s\nwant:\n%s", got, tt.want)
			}
			if cfg, diags := Load(path); diags.HasErrors() || len(cfg.Channels) != 2 || declares(cfg, tt.channel) {
				t.Errorf("loaded: %v, channels %+v", diags, cfg.Channels)
			}
		})
	}
}

func TestRemoveTheOnlyChannelLeavesAnEmptyList(t *testing.T) {
	t.Setenv("LANG", "C")
	path := newConfigFile(t, "version: 1\nagents: []\nchannels: # the rooms\n  - name: a\n    description: x\nui:\n  theme: dark\n")
	if err := RemoveChannelFromFile(path, "a"); err != nil {
		t.Fatal(err)
	}
	want := "version: 1\nagents: []\nchannels: [] # the rooms\nui:\n  theme: dark\n"
	if got := fileText(t, path); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestChannelEditsRefused(t *testing.T) {
	t.Setenv("LANG", "C")
	// Not declared: nothing written.
	path := newConfigFile(t, channelsFile)
	if err := RenameChannelInFile(path, "nope", "x"); !errors.Is(err, ErrChannelNotDeclared) {
		t.Errorf("rename of an undeclared channel: %v", err)
	}
	if err := RemoveChannelFromFile(path, "nope"); !errors.Is(err, ErrChannelNotDeclared) {
		t.Errorf("removal of an undeclared channel: %v", err)
	}
	// A flow list is renamed in place, not removed from.
	flow := "version: 1\nagents: []\nchannels: [{name: a}, {name: b}] # rooms\n"
	path = newConfigFile(t, flow)
	if err := RemoveChannelFromFile(path, "a"); !errors.Is(err, ErrChannelsInFlowStyle) {
		t.Errorf("removal from a flow list: %v", err)
	}
	if err := RenameChannelInFile(path, "b", "c, d"); err != nil {
		t.Fatal(err)
	}
	if got, want := fileText(t, path), "version: 1\nagents: []\nchannels: [{name: a}, {name: \"c, d\"}] # rooms\n"; got != want {
		t.Errorf("flow rename:\n%s\nwant:\n%s", got, want)
	}
	// A file with an error gives its diagnostics, and is not changed.
	broken := strings.Replace(channelsFile, "version: 1", "version: 2", 1)
	path = newConfigFile(t, broken)
	var diags Diagnostics
	if err := RemoveChannelFromFile(path, "ops"); !errors.As(err, &diags) || !diags.HasErrors() {
		t.Errorf("broken file: %v", err)
	}
	// Renaming to a name another channel has would leave two: refused with the loader's
	// error about the result, nothing written.
	path = newConfigFile(t, channelsFile)
	var refused *ChangeRefusedError
	if err := RenameChannelInFile(path, "ops", "Général"); !errors.As(err, &refused) || !strings.Contains(refused.Diags.Error(), "channels[1].name") {
		t.Errorf("renaming to another channel's name: %v", err)
	}
	for _, p := range []string{path} {
		if data, _ := os.ReadFile(p); string(data) != channelsFile {
			t.Errorf("%s changed:\n%s", p, data)
		}
	}
}
