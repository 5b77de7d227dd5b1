package config

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// The starter file's demo agent is the executable given, however its path is spelt: TOML
// reads back exactly the path written.
func TestProjectStarterFileNamesTheExecutable(t *testing.T) {
	for _, exe := range []string{"/opt/side kicks/bin/sidekicks", `/tmp/a "quoted" \ path/sidekicks`, "/tmp/tab\there/sidekicks"} {
		dir, _ := newProject(t, string(ProjectStarterFileIn(i18n.English, exe)))
		agents, diags := LoadProject(dir, i18n.English)
		if diags.HasErrors() || len(agents) != 1 || agents[0].Command != exe {
			t.Errorf("%q: the starter file gives %+v, %q; want its demo agent run by that path", exe, agents, diags)
		}
	}
}
