package runtime

import (
	"reflect"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestMatchPatterns(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"AGENTS.md", "AGENTS.md", true},
		{"AGENTS.md", "sub/AGENTS.md", false},
		{"AGENTS.md", "AGENTS.md.bak", false},
		{"*.env", ".env", true},
		{"*.env", "prod.env", true},
		{"*.env", "conf/prod.env", false},
		{"**/*.env", "conf/prod.env", true},
		{"**/*.env", "a/b/c/prod.env", true},
		{"**/*.env", "prod.env", true},
		{"file?.txt", "file1.txt", true},
		{"file?.txt", "fileé.txt", true},
		{"file?.txt", "file12.txt", false},
		{"file?.txt", "file.txt", false},
		{"skills/**", "skills", true},
		{"skills/**", "skills/a", true},
		{"skills/**", "skills/a/b/c.md", true},
		{"skills/**", "skillsX/a", false},
		{"skills/**", "other/skills/a", false},
		{"a/**/z", "a/z", true},
		{"a/**/z", "a/b/c/z", true},
		{"a/**/z", "a/b/c/y", false},
		{"a/*/z", "a/b/z", true},
		{"a/*/z", "a/b/c/z", false},
		{"*", "x", true},
		{"*", "x/y", false},
		{"a*b*c", "aXXbYYc", true},
		{"a*b*c", "aXXbYY", false},
		{"[ab]", "a", false}, // only * and ? are special
		{"[ab]", "[ab]", true},
		{"./notes.md", "notes.md", true},
	}
	for _, tt := range tests {
		p := newProtector([]string{tt.pattern})
		p.fold = false
		if got := p.match(tt.path); got != tt.want {
			t.Errorf("pattern %q on %q = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
}

func TestMatchFoldsCaseWhenAsked(t *testing.T) {
	p := newProtector([]string{"AGENTS.md"})
	p.fold = true
	if !p.match("agents.md") {
		t.Error("a case-insensitive file system must protect agents.md like AGENTS.md")
	}
}

// A hostile pattern must not take exponential time.
func TestMatchManyStarsStaysFast(t *testing.T) {
	pat := strings.Repeat("**/", 30) + strings.Repeat("*a", 30) + "b"
	p := newProtector([]string{pat})
	path := strings.Repeat("d/", 40) + strings.Repeat("a", 200)
	if p.match(path) {
		t.Error("should not match")
	}
}

func TestProtections(t *testing.T) {
	ws := "/home/me/agents/alice"
	tests := []struct {
		name  string
		agent config.Agent
		want  []string
	}{
		{"defaults only", config.Agent{Workspace: ws}, []string{"AGENTS.md", "skills/**"}},
		{"protect list first, cleaned, duplicates once", config.Agent{Workspace: ws,
			Protect: []string{"./notes.md", "AGENTS.md", ws + "/secret/*.key", "../outside"}},
			[]string{"notes.md", "AGENTS.md", "secret/*.key", "skills/**"}},
		{"--config relative", config.Agent{Workspace: ws, Args: []string{"--acp", "--config", "agent.yaml"}},
			[]string{"AGENTS.md", "skills/**", "agent.yaml"}},
		{"-config in a folder", config.Agent{Workspace: ws, Args: []string{"-acp", "-config", "conf/agent.yaml"}},
			[]string{"AGENTS.md", "skills/**", "conf/agent.yaml"}},
		{"--config= absolute inside", config.Agent{Workspace: ws, Args: []string{"--config=" + ws + "/a.yaml"}},
			[]string{"AGENTS.md", "skills/**", "a.yaml"}},
		{"config outside is not protected", config.Agent{Workspace: ws, Args: []string{"--config", "/etc/agent.yaml"}},
			[]string{"AGENTS.md", "skills/**"}},
		{"config with ..", config.Agent{Workspace: ws, Args: []string{"--config", "../bob/agent.yaml"}},
			[]string{"AGENTS.md", "skills/**"}},
		{"serve acp", config.Agent{Workspace: ws, Args: []string{"agent", "serve", "acp", ws + "/team.yaml"}},
			[]string{"AGENTS.md", "skills/**", "team.yaml"}},
		{"acp without serve is not a config", config.Agent{Workspace: ws, Args: []string{"acp", "x.yaml"}},
			[]string{"AGENTS.md", "skills/**"}},
		{"container: compose defaults and Dockerfile", config.Agent{Workspace: ws,
			Runtime: config.Runtime{Type: "container", Container: "box"}},
			[]string{"AGENTS.md", "skills/**", "compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml", "Dockerfile"}},
		{"container: compose -f in the lifecycle folder", config.Agent{Workspace: ws,
			Runtime: config.Runtime{Type: "container", Container: "team-scout-1", Lifecycle: config.Lifecycle{
				Folder: ws + "/deploy",
				Create: []string{"docker", "compose", "-f", "team.yaml", "up", "-d", "--wait", "scout"},
				Stop:   []string{"docker", "compose", "-f", "team.yaml", "stop", "scout"},
				Remove: []string{"docker", "compose", "-f", "team.yaml", "rm", "-f", "scout"},
			}}},
			[]string{"AGENTS.md", "skills/**", "deploy/team.yaml", "deploy/Dockerfile"}},
		{"container: --file= and -p before it", config.Agent{Workspace: ws,
			Runtime: config.Runtime{Type: "container", Container: "c", Lifecycle: config.Lifecycle{
				Create: []string{"docker", "compose", "-p", "team", "--file=c.yml", "up"},
			}}},
			[]string{"AGENTS.md", "skills/**", "c.yml", "Dockerfile"}},
		{"container: rm -f is not a compose file", config.Agent{Workspace: ws,
			Runtime: config.Runtime{Type: "container", Container: "c", Lifecycle: config.Lifecycle{
				Remove: []string{"docker", "rm", "-f", "c"},
			}}},
			[]string{"AGENTS.md", "skills/**", "compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml", "Dockerfile"}},
		{"container: lifecycle folder outside the workspace", config.Agent{Workspace: ws,
			Runtime: config.Runtime{Type: "container", Container: "c", Lifecycle: config.Lifecycle{
				Folder: "/home/me/agents/team",
				Create: []string{"docker", "compose", "up", "-d"},
			}}},
			[]string{"AGENTS.md", "skills/**"}},
		{"sbx: sbxenv.yaml", config.Agent{Workspace: ws,
			Runtime: config.Runtime{Type: "sbx", Sandbox: "milo", Lifecycle: config.Lifecycle{
				Create: []string{"sbx", "env", "create", "--force"},
			}}},
			[]string{"AGENTS.md", "skills/**", "sbxenv.yaml"}},
		{"sbx: a named env file", config.Agent{Workspace: ws,
			Runtime: config.Runtime{Type: "sbx", Sandbox: "milo", Lifecycle: config.Lifecycle{
				Create: []string{"sbx", "env", "create", "dev.yaml", "--force"},
				Remove: []string{"sbx", "env", "rm", "dev.yaml", "--force"},
			}}},
			[]string{"AGENTS.md", "skills/**", "dev.yaml"}},
		{"sbx: workspacePath counts as the workspace", config.Agent{Workspace: ws,
			Args:    []string{"exec", "-i", "milo", "mm", "--config", "/work/agent.yaml"},
			Runtime: config.Runtime{Type: "sbx", Sandbox: "milo", WorkspacePath: "/work"}},
			[]string{"AGENTS.md", "skills/**", "agent.yaml", "sbxenv.yaml"}},
		{"local: no build files", config.Agent{Workspace: ws, Runtime: config.Runtime{Type: "local"}},
			[]string{"AGENTS.md", "skills/**"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Protections(tt.agent); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Protections = %q\nwant          %q", got, tt.want)
			}
		})
	}
}
