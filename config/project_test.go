package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// newProject makes a project folder whose .sidekicks/acp.toml holds content, and returns
// the folder and the file's path.
func newProject(t *testing.T, content string) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, ".sidekicks", "acp.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

// pathWithPrograms puts a folder holding executable scripts with these names first in
// PATH (and alone: nothing else is found), and returns the folder.
func pathWithPrograms(t *testing.T, names ...string) string {
	t.Helper()
	bin := t.TempDir()
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	return bin
}

func TestLoadProjectAbsentFileIsNothing(t *testing.T) {
	agents, diags := LoadProject(t.TempDir(), i18n.English)
	if agents != nil || diags != nil {
		t.Fatalf("LoadProject on a folder without acp.toml = %v, %v; want nothing", agents, diags)
	}
}

func TestLoadProjectReadsAgents(t *testing.T) {
	bin := pathWithPrograms(t, "docker")
	dir, path := newProject(t, `# two agents
[[agent]]
name    = "Bob (llama.cpp)"
command = "docker"
args    = ["agent", "serve", "acp", ".sidekicks/agent.yaml"]
env     = { TELEMETRY_ENABLED = "false" }
cwd     = "."

[[agent]]
name    = "Émile à l'œuvre"
command = "./tools/agent"
cwd     = "sub/dir"

[agent.env]
LOG_LEVEL = "debug"
`)
	if err := os.MkdirAll(filepath.Join(dir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	tool := filepath.Join(dir, "tools", "agent")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	agents, diags := LoadProject(dir, i18n.English)
	if len(diags) != 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := []Agent{
		{
			Name:        "bob-llama-cpp",
			Title:       "Bob (llama.cpp)",
			Command:     "docker",
			CommandPath: filepath.Join(bin, "docker"),
			Args:        []string{"agent", "serve", "acp", ".sidekicks/agent.yaml"},
			Env:         map[string]string{"TELEMETRY_ENABLED": "false"},
			Workspace:   dir,
			Runtime:     Runtime{Type: "local", WorkspacePath: dir, Lifecycle: Lifecycle{Folder: dir}},
			Source:      path,
			Line:        2,
		},
		{
			Name:        "emile-a-l-oeuvre",
			Title:       "Émile à l'œuvre",
			Command:     "./tools/agent",
			CommandPath: tool,
			Args:        []string{},
			Env:         map[string]string{"LOG_LEVEL": "debug"},
			Workspace:   filepath.Join(dir, "sub", "dir"),
			Runtime: Runtime{Type: "local", WorkspacePath: filepath.Join(dir, "sub", "dir"),
				Lifecycle: Lifecycle{Folder: filepath.Join(dir, "sub", "dir")}},
			Source: path,
			Line:   9,
		},
	}
	if !reflect.DeepEqual(agents, want) {
		t.Errorf("agents:\n got %+v\nwant %+v", agents, want)
	}
}

// The four refusals of the specification, to the letter in English, and in French.
func TestLoadProjectRefusals(t *testing.T) {
	pathWithPrograms(t, "mm")
	tests := []struct {
		name, content string
		line          int
		en, fr        string
	}{
		{
			name:    "no name",
			content: "[[agent]]\ncommand = \"mm\"\n",
			line:    1,
			en:      "agent 1 has no name",
			fr:      "l'agent 1 n'a pas de nom",
		},
		{
			name:    "empty name",
			content: "[[agent]]\nname = \"ok\"\ncommand = \"mm\"\n\n[[agent]]\nname = \"  \"\ncommand = \"mm\"\n",
			line:    5,
			en:      "agent 2 has no name",
			fr:      "l'agent 2 n'a pas de nom",
		},
		{
			name:    "no command",
			content: "[[agent]]\nname = \"Bob\"\n",
			line:    1,
			en:      `agent "Bob" has no command`,
			fr:      "l'agent « Bob » n'a pas de commande",
		},
		{
			name:    "same name",
			content: "[[agent]]\nname = \"Bob\"\ncommand = \"mm\"\n\n[[agent]]\nname = \"Bob\"\ncommand = \"mm\"\n",
			line:    5,
			en:      `two agents are called "Bob"`,
			fr:      "deux agents s'appellent « Bob »",
		},
		{
			name:    "unknown key",
			content: "[[agent]]\nname = \"Bob\"\ncomand = \"mm\"\ncommand = \"mm\"\n",
			line:    3,
			en:      "agent.comand is not a key this file has",
			fr:      "agent.comand n'est pas une clé de ce fichier",
		},
		{
			name:    "unknown table",
			content: "[[agent]]\nname = \"Bob\"\ncommand = \"mm\"\n\n[agent.environment]\nA = \"b\"\n",
			line:    5,
			en:      "agent.environment is not a key this file has",
			fr:      "agent.environment n'est pas une clé de ce fichier",
		},
		{
			name:    "unknown top-level key",
			content: "agents = 1\n",
			line:    1,
			en:      "agents is not a key this file has",
			fr:      "agents n'est pas une clé de ce fichier",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, path := newProject(t, tt.content)
			for lang, text := range map[i18n.Lang]string{i18n.English: "reading " + path + ": " + tt.en, i18n.French: "lecture de " + path + " : " + tt.fr} {
				agents, diags := LoadProject(dir, lang)
				if agents != nil {
					t.Errorf("%s: agents = %v; the file must be refused as a whole", lang, agents)
				}
				if len(diags) != 1 {
					t.Fatalf("%s: diagnostics = %q; want one", lang, diags)
				}
				d := diags[0]
				if d.Message != text || d.Warning || d.File != path || d.Line != tt.line {
					t.Errorf("%s: got %+v\nwant message %q at line %d, an error in %s", lang, d, text, tt.line, path)
				}
			}
		})
	}
}

func TestLoadProjectOtherRefusals(t *testing.T) {
	pathWithPrograms(t, "mm")
	tests := []struct {
		name, content string
		line          int
		en, fr        string
	}{
		{
			name:    "names giving the same @name",
			content: "[[agent]]\nname = \"Bob!\"\ncommand = \"mm\"\n[[agent]]\nname = \"bob?\"\ncommand = \"mm\"\n",
			line:    4,
			en:      `agents "Bob!" and "bob?" both get the name "bob", used with @: make their names differ by a letter or a digit`,
			fr:      "les agents « Bob! » et « bob? » reçoivent tous deux le nom « bob », utilisé avec @ : faites-les différer d'une lettre ou d'un chiffre",
		},
		{
			name:    "syntax error",
			content: "[[agent]]\nname = \"Bob\"\ncommand = mm\n",
			line:    3,
			en:      "line 3: this is not valid TOML (",
			fr:      "ligne 3 : ce n'est pas du TOML valide (",
		},
		{
			name:    "name not text",
			content: "[[agent]]\nname = 3\ncommand = \"mm\"\n",
			line:    2,
			en:      "agent 1: name must be text, in quotes",
			fr:      "l'agent 1 : name doit être un texte entre guillemets",
		},
		{
			name:    "args not a list of texts",
			content: "[[agent]]\nname = \"Bob\"\ncommand = \"mm\"\nargs = [\"a\", 2]\n",
			line:    4,
			en:      `agent "Bob": args must be a list of texts, such as ["serve", "acp"]`,
			fr:      `l'agent « Bob » : args doit être une liste de textes, comme ["serve", "acp"]`,
		},
		{
			name:    "env not a table of texts",
			content: "[[agent]]\nname = \"Bob\"\ncommand = \"mm\"\nenv = { A = true }\n",
			line:    4,
			en:      `agent "Bob": env must be a table of texts, such as { LOG_LEVEL = "debug" }`,
			fr:      `l'agent « Bob » : env doit être une table de textes, comme { LOG_LEVEL = "debug" }`,
		},
		{
			name:    "agent as a single table",
			content: "[agent]\nname = \"Bob\"\ncommand = \"mm\"\n",
			line:    1,
			en:      "agent must be a list of [[agent]] blocks",
			fr:      "agent doit être une liste de blocs [[agent]]",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, path := newProject(t, tt.content)
			for lang, text := range map[i18n.Lang]string{i18n.English: "reading " + path + ": " + tt.en, i18n.French: "lecture de " + path + " : " + tt.fr} {
				agents, diags := LoadProject(dir, lang)
				if agents != nil || len(diags) != 1 {
					t.Fatalf("%s: got %v, %q; want no agents and one diagnostic", lang, agents, diags)
				}
				d := diags[0]
				if !strings.HasPrefix(d.Message, text) || d.Warning || d.Line != tt.line {
					t.Errorf("%s: got %+v\nwant an error at line %d starting with %q", lang, d, tt.line, text)
				}
			}
		})
	}
}

func TestLoadProjectReportsEveryProblem(t *testing.T) {
	pathWithPrograms(t, "mm")
	dir, path := newProject(t, "[[agent]]\ncommand = \"mm\"\n\n[[agent]]\nname = \"Bob\"\nnom = \"x\"\n")
	_, diags := LoadProject(dir, i18n.English)
	var got []string
	for _, d := range diags {
		got = append(got, d.Message)
	}
	want := []string{
		"reading " + path + ": agent 1 has no name",
		"reading " + path + `: agent "Bob" has no command`,
		"reading " + path + ": agent.nom is not a key this file has",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages:\n got %q\nwant %q", got, want)
	}
}

func TestLoadProjectMissingCommandIsAWarning(t *testing.T) {
	pathWithPrograms(t)
	dir, path := newProject(t, "[[agent]]\nname = \"Bob\"\ncommand = \"no-such-agent\"\n\n[[agent]]\nname = \"Ann\"\ncommand = \"bin/none\"\n")
	agents, diags := LoadProject(dir, i18n.French)
	if len(agents) != 2 || agents[0].CommandPath != "" || agents[1].CommandPath != "" {
		t.Fatalf("agents = %+v; want both, without a command path", agents)
	}
	want := Diagnostics{
		{File: path, Line: 3, Key: "agent.command", Warning: true,
			Message: "lecture de " + path + " : l'agent « Bob » : la commande « no-such-agent » est introuvable dans le PATH ; installez-la, ou indiquez son chemin"},
		{File: path, Line: 7, Key: "agent.command", Warning: true,
			Message: "lecture de " + path + " : l'agent « Ann » : la commande « bin/none » n'existe pas"},
	}
	if !reflect.DeepEqual(diags, want) {
		t.Errorf("diagnostics:\n got %+v\nwant %+v", diags, want)
	}
}

// A control character in a name is shown as its escape, not sent; a bidirectional control
// too, even with no other control character beside it.
func TestLoadProjectEscapesControlCharacters(t *testing.T) {
	pathWithPrograms(t)
	for _, tc := range []struct{ name, shown string }{
		{"Bob\\u001b[31m", `« Bob\x1b[31m »`},
		{"Bob\\u202e", `« Bob\u202e »`},
	} {
		dir, _ := newProject(t, "[[agent]]\nname = \""+tc.name+"\"\n")
		_, diags := LoadProject(dir, i18n.French)
		if len(diags) != 1 {
			t.Fatalf("diagnostics = %q; want one", diags)
		}
		if strings.ContainsAny(diags[0].Message, "\x1b\u202e") || !strings.Contains(diags[0].Message, tc.shown) {
			t.Errorf("message %q: the escape must be shown, not sent", diags[0].Message)
		}
	}
}

func TestLoadProjectRefusesAHugeFile(t *testing.T) {
	dir, _ := newProject(t, "# "+strings.Repeat("x", maxProjectFileSize)+"\n")
	agents, diags := LoadProject(dir, i18n.English)
	if agents != nil || len(diags) != 1 || diags[0].Message != "reading "+filepath.Join(dir, ProjectFile)+": the file is too large for an agents file (1024 KiB at most)" {
		t.Errorf("got %v, %q; want a refusal saying the file is too large", agents, diags)
	}
}

func TestLoadProjectFolderInsteadOfFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ProjectFile), 0o755); err != nil {
		t.Fatal(err)
	}
	agents, diags := LoadProject(dir, i18n.French)
	want := "lecture de " + filepath.Join(dir, ProjectFile) + " : c'est un dossier, pas un fichier"
	if agents != nil || len(diags) != 1 || diags[0].Message != want || diags[0].Warning {
		t.Errorf("got %v, %q; want the error %q", agents, diags, want)
	}
}

func TestNameFromTitle(t *testing.T) {
	tests := map[string]string{
		"Bob":             "bob",
		"Bob (llama.cpp)": "bob-llama-cpp",
		"  --Bob--  ":     "bob",
		"Émile Zola":      "emile-zola",
		"Straße & Œuvre":  "strasse-oeuvre",
		"GPT_4o mini":     "gpt-4o-mini",
		"42 agents":       "agent-42-agents",
		"":                "agent",
		"日本語":             "agent",
		"Ты Bob":          "bob",
		"a very long name that goes past the limit": "a-very-long-name-that-goes-past",
		"abcdefghijklmnopqrstuvwxyzabcde-f":         "abcdefghijklmnopqrstuvwxyzabcde",
		"agent\x1b[31m":                             "agent-31m",
	}
	for title, want := range tests {
		got := NameFromTitle(title)
		if got != want {
			t.Errorf("NameFromTitle(%q) = %q; want %q", title, got, want)
		}
		if len(got) > 32 || got[0] < 'a' || got[0] > 'z' || strings.HasSuffix(got, "-") {
			t.Errorf("NameFromTitle(%q) = %q is not a valid agent name", title, got)
		}
	}
}

func TestMergeProject(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		cfg := &Config{UI: UI{Language: lang}, Agents: []Agent{
			{Name: "alice", Title: "Alice"},
			{Name: "bob", Title: "Bob (config)"},
			{Name: "carol", Title: "Carol"},
		}}
		diags := MergeProject(cfg, []Agent{
			{Name: "dave", Title: "Dave", Source: "/p/.sidekicks/acp.toml"},
			{Name: "bob", Title: "Bob (project)", Source: "/p/.sidekicks/acp.toml", Line: 5},
		})
		var got []string
		for _, a := range cfg.Agents {
			got = append(got, fmt.Sprintf("%s=%s project=%v", a.Name, a.Title, a.Project))
		}
		// The configuration's bob is kept, in its place; the project's is left out. The
		// project's dave is marked as such in its title, in the configuration's language.
		mark := map[i18n.Lang]string{i18n.English: "[project]", i18n.French: "[projet]"}[lang]
		want := []string{"alice=Alice project=false", "bob=Bob (config) project=false", "carol=Carol project=false", "dave=Dave " + mark + " project=true"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: merged agents = %q; want %q", lang, got, want)
		}
		wantMsg := map[i18n.Lang]string{
			i18n.English: `reading /p/.sidekicks/acp.toml: agent "Bob (project)" is not added: the configuration already has an agent named @bob ("Bob (config)"), which is kept; rename one of them`,
			i18n.French:  "lecture de /p/.sidekicks/acp.toml : l'agent « Bob (project) » n'est pas ajouté : la configuration a déjà un agent nommé @bob (« Bob (config) »), qui est gardé ; renommez l'un des deux",
		}[lang]
		if len(diags) != 1 || !diags[0].Warning || diags[0].Line != 5 || diags[0].File != "/p/.sidekicks/acp.toml" || diags[0].Message != wantMsg {
			t.Errorf("%s: diagnostics %+v; want one warning %q", lang, diags, wantMsg)
		}
	}
}

func TestProjectStarterFileLoadsCleanly(t *testing.T) {
	pathWithPrograms(t, "sidekicks", "docker")
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		starter := string(ProjectStarterFileIn(lang, "sidekicks"))
		dir, _ := newProject(t, starter)
		agents, diags := LoadProject(dir, lang)
		if len(diags) != 0 || len(agents) != 1 || agents[0].Name != map[i18n.Lang]string{i18n.English: "demo-project", i18n.French: "demo-projet"}[lang] || !reflect.DeepEqual(agents[0].Args, []string{"demo-agent"}) {
			t.Errorf("%s: starter file gives %+v, %q; want the demo agent alone, cleanly", lang, agents, diags)
		}
		// Its commented example works once uncommented.
		uncommented := strings.ReplaceAll(starter, "\n# [[agent]]", "\n[[agent]]")
		for _, key := range []string{"name", "command", "args", "env"} {
			uncommented = strings.ReplaceAll(uncommented, "\n# "+key+" ", "\n"+key+" ")
		}
		dir, _ = newProject(t, uncommented)
		agents, diags = LoadProject(dir, lang)
		if len(diags) != 0 || len(agents) != 2 || agents[1].Name != "bob-docker-agent" || agents[1].Env["TELEMETRY_ENABLED"] != "false" {
			t.Errorf("%s: uncommented starter file gives %+v, %q; want two agents", lang, agents, diags)
		}
	}
	if string(ProjectStarterFile("sidekicks")) != string(ProjectStarterFileIn(i18n.English, "sidekicks")) {
		t.Error("ProjectStarterFile is not the English starter file")
	}
}

// FuzzParseProject feeds arbitrary bytes to the project file reader: it never panics,
// refuses or accepts as a whole, and shows no control character.
func FuzzParseProject(f *testing.F) {
	f.Add([]byte(projectStarterEN))
	f.Add([]byte("[[agent]]\nname = \"Bob\"\ncommand = \"mm\"\n[agent.env]\nA = \"b\"\n"))
	f.Add([]byte("[[agent]]\nname = '''x\n]]\n'''\n[\"a.b\".c]\nd = 1\n"))
	f.Add([]byte("agent = [{name = \"a\", command = \"b\"}]\n[[ agent ]]\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		agents, diags := parseProject(dir, filepath.Join(dir, ProjectFile), i18n.English, data)
		if diags.HasErrors() && agents != nil {
			t.Fatalf("agents %v returned with errors %q", agents, diags)
		}
		for _, d := range diags {
			for _, r := range d.Message {
				if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
					t.Fatalf("message %q holds a control character", d.Message)
				}
			}
		}
		for _, a := range agents {
			if a.Name == "" || len(a.Name) > 32 {
				t.Fatalf("agent name %q is not valid", a.Name)
			}
		}
	})
}
