package config

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

var updateWizard = flag.Bool("update-wizard", false, "rewrite the expected files in testdata/wizard/")

// wizardCases are the wizard's inputs for each row of the specification's two tables
// ("Ce qu'écrit l'assistant « Ajouter un agent »"); testdata/wizard/<name>.want.yaml is
// testdata/wizard/original.yaml with the agent appended.
var wizardCases = []struct {
	name string
	row  string // the row of the specification it covers
	in   WizardInput
}{
	{"names", "Nom utilisé avec @, Nom affiché, Icône, Ce qu'il fait", WizardInput{
		Name: "scout", Title: "Scout (explorer)", Icon: "🔭", Description: "Looks around: files, web",
		Program: "mm", Arguments: "--acp"}},
	{"names-empty", "champs vides omis", WizardInput{
		Name: "  bare  ", Title: " ", Program: "mm"}},
	{"workspace", "Dossier de l'agent, tel que saisi", WizardInput{
		Name: "ws", Folder: "~/agents/my scout", Program: "mm", Arguments: "--acp"}},
	{"workspace-relative", "Dossier de l'agent, relatif", WizardInput{
		Name: "rel", Folder: "./agents/rel", Program: "mm"}},
	{"local", "Sur cet ordinateur", WizardInput{
		Name: "here", Where: WhereLocal, Program: "mm",
		Arguments: `--acp --config "my agent.yaml" --greeting 'hello world' --empty "" a\ b --name="x y"`}},
	{"container", "Dans un conteneur Docker", WizardInput{
		Name: "boxed", Where: WhereContainer, Container: "scout-box", Program: "mm", Arguments: "--acp",
		Folder: "/Users/moi/agents/boxed"}},
	{"sbx", "Dans une sandbox sbx", WizardInput{
		Name: "translator-sbx", Title: "Translator (sandbox)", Where: WhereSbx, Sandbox: "mm-translator",
		Program: "mm", Arguments: "-acp", Folder: "./agents/translator/workspace"}},
	{"sbx-lifecycle", "Dossier où les commandes sont lancées, Commande qui crée / arrête / supprime la sandbox", WizardInput{
		Name: "milo", Where: WhereSbx, Sandbox: "milo-sbx", Program: "mm", Arguments: "--acp",
		Folder: "/Users/moi/agents/milo", LifecycleFolder: "/Users/moi/agents/milo",
		CreateCommand: "sbx env create --force", StopCommand: "sbx stop milo-sbx", RemoveCommand: "sbx env rm --force"}},
	{"sbx-lifecycle-one", "une seule commande du cycle de vie", WizardInput{
		Name: "milo", Where: WhereSbx, Sandbox: "milo-sbx", Program: "mm",
		RemoveCommand: "sbx rm milo-sbx --force"}},
	{"sbx-lifecycle-none", "cycle de vie omis si aucune commande n'est donnée", WizardInput{
		Name: "milo", Where: WhereSbx, Sandbox: "milo-sbx", Program: "mm", LifecycleFolder: "/Users/moi/agents/milo"}},
	{"container-lifecycle", "un service Compose (le cycle de vie d'un conteneur)", WizardInput{
		Name: "scout", Where: WhereContainer, Container: "team-scout-1", Program: "mm", Arguments: "--acp",
		Folder: "/Users/moi/agents/team", LifecycleFolder: "/Users/moi/agents/team",
		CreateCommand: "docker compose -f compose.yaml up -d --wait scout",
		StopCommand:   "docker compose -f compose.yaml stop scout",
		RemoveCommand: "docker compose -f compose.yaml rm --stop --force scout"}},
	{"program-words", "docker agent donne command: docker et agent comme premier argument", WizardInput{
		Name: "da", Program: "docker agent", Arguments: "serve acp ./agent.yaml"}},
	{"program-path", "le programme n'est pas découpé quand c'est un chemin (/)", WizardInput{
		Name: "tool", Program: "/opt/my tools/mm", Arguments: "--acp"}},
	{"program-home", "le programme n'est pas découpé quand c'est un chemin (~)", WizardInput{
		Name: "tool", Program: "~/bin/my agent", Arguments: "--acp"}},
	{"config-mm", "fichier de configuration : mm", WizardInput{
		Name: "scout", Folder: "/somewhere/else", Program: "mm", Arguments: "--ignored",
		AgentConfigFile: "/agents/scout/agent.yaml"}},
	{"config-docker-agent", "fichier de configuration : docker-agent", WizardInput{
		Name: "scout", Program: "docker-agent", AgentConfigFile: "/agents/scout/team.yaml"}},
	{"config-docker-space-agent", "fichier de configuration : docker agent", WizardInput{
		Name: "scout", Program: "docker agent", Arguments: "run", AgentConfigFile: "/agents/scout/team.yaml"}},
	{"config-other", "fichier de configuration : tout autre programme", WizardInput{
		Name: "goose", Program: "goose", Arguments: "acp --with-config ./g.yaml", AgentConfigFile: "/agents/goose/g.yaml"}},
	{"config-mm-sbx", "fichier de configuration : mm dans une sandbox", WizardInput{
		Name: "milo", Where: WhereSbx, Sandbox: "milo-sbx", Program: "mm",
		AgentConfigFile: "/Users/moi/agents/milo/agent.yaml"}},
	{"config-docker-agent-container", "fichier de configuration : docker agent dans un conteneur", WizardInput{
		Name: "scout", Where: WhereContainer, Container: "scout-box", Program: "docker agent",
		AgentConfigFile: `/agents/my\ scout/team.yaml`}},
}

// wizardConfig copies a file of testdata/wizard as config.yaml in a new folder, with an
// empty PATH (so that mm is "not found", a warning) and LANG=C.
func wizardConfig(t *testing.T, original string) string {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LANG", "C")
	data, err := os.ReadFile(filepath.Join("testdata/wizard", original))
	if err != nil {
		t.Fatal(err)
	}
	return newConfigFile(t, string(data))
}

func TestWizardWritesWhatTheSpecSays(t *testing.T) {
	if len(wizardCases) < 18 {
		t.Fatalf("only %d cases", len(wizardCases))
	}
	for _, tc := range wizardCases {
		t.Run(tc.name, func(t *testing.T) {
			path := wizardConfig(t, "original.yaml")
			p, err := PreviewWizard(path, tc.in)
			if err != nil {
				t.Fatalf("PreviewWizard (%s): %v", tc.row, err)
			}
			before := fileText(t, path)
			if err := ApplyWizard(path, p); err != nil {
				t.Fatalf("ApplyWizard (%s): %v", tc.row, err)
			}
			got := fileText(t, path)
			wantFile := filepath.Join("testdata/wizard", tc.name+".want.yaml")
			if *updateWizard {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := fileText(t, wantFile); got != want {
				t.Fatalf("%s: the file after the wizard:\n%s\nwant:\n%s", tc.row, got, want)
			}
			// The comments and every line of the original are there, in order, and the
			// preview showed exactly what was added.
			split := strings.Index(before, "\n# Channels created")
			if !strings.HasPrefix(got, before[:split]) || !strings.HasSuffix(got, before[split:]) {
				t.Errorf("the original file is not kept around the new agent")
			}
			if added := string(p.Added); strings.Replace(got, added, "", 1) != before[:split]+"\n"+before[split:] {
				t.Errorf("the preview shows:\n%s\nwhich is not what was added", added)
			}
			cfg, diags := Load(path)
			if diags.HasErrors() {
				t.Fatalf("the result does not load: %v", diags)
			}
			last := cfg.Agents[len(cfg.Agents)-1]
			if last.Name != strings.TrimSpace(tc.in.Name) {
				t.Errorf("the last agent is %q", last.Name)
			}
			for _, w := range p.Warnings {
				if !strings.HasPrefix(w.Key, "agents[2]") || !w.Warning {
					t.Errorf("a warning that is not about the new agent: %+v", w)
				}
			}
		})
	}
}

func TestWizardPreviewWarnsAboutAProgramNotFound(t *testing.T) {
	path := wizardConfig(t, "original.yaml")
	p, err := PreviewWizard(path, WizardInput{Name: "zed", Program: "zed-agent"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Warnings) != 1 || p.Warnings[0].Key != "agents[2].command" || !strings.Contains(p.Warnings[0].Message, "zed-agent") {
		t.Errorf("warnings %+v; want one about agents[2].command", p.Warnings)
	}
	want := "  - name: zed\n    command: zed-agent\n"
	if string(p.Added) != want {
		t.Errorf("Added = %q; want %q", p.Added, want)
	}
	if fileText(t, path) != fileText(t, "testdata/wizard/original.yaml") {
		t.Error("the preview wrote the file")
	}
	if p.Lang != i18n.English {
		t.Errorf("Lang = %q", p.Lang)
	}
	if p, err := PreviewWizard(wizardConfig(t, "original.fr.yaml"), WizardInput{Name: "zed", Program: "zed-agent"}); err != nil || p.Lang != i18n.French || !strings.HasPrefix(p.Warnings[0].Message, "ligne 24 — agents[2].command : ") {
		t.Errorf("in a French file: %v, %q, %v", err, p.Lang, p.Warnings)
	}
}

func TestWizardSpecSplitsLikeAShell(t *testing.T) {
	spec, err := WizardSpec(WizardInput{Name: "x", Program: `"my prog" -v`, Arguments: `'a  b' c\ d "e\"f"`})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Command != "my prog" || strings.Join(spec.Args, "|") != `-v|a  b|c d|e"f` {
		t.Errorf("command %q, args %q", spec.Command, spec.Args)
	}
}

func TestWizardConfigFilePaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tt := range []struct {
		typed, base, want string
	}{
		{"/a/b/agent.yaml", "", "/a/b/agent.yaml"},
		{"  '/a/my b/agent.yaml'  ", "", "/a/my b/agent.yaml"},
		{`/a/my\ b/agent.yaml`, "", "/a/my b/agent.yaml"},
		{"/a/my b/agent.yaml", "", "/a/my b/agent.yaml"}, // typed with its spaces, unquoted
		{"agents/x/agent.yaml", "/cfg", "/cfg/agents/x/agent.yaml"},
		{"../x/agent.yaml", "/cfg/sub", "/cfg/x/agent.yaml"},
		{"~/agents/agent.yaml", "", filepath.Join(home, "agents/agent.yaml")},
	} {
		spec, err := WizardSpec(WizardInput{Name: "x", Program: "mm", AgentConfigFile: tt.typed, BaseDir: tt.base})
		if err != nil {
			t.Errorf("%q: %v", tt.typed, err)
			continue
		}
		if got := spec.Args[len(spec.Args)-1]; got != tt.want || spec.Workspace != filepath.Dir(tt.want) {
			t.Errorf("%q from %q: file %q, workspace %q; want %q", tt.typed, tt.base, got, spec.Workspace, tt.want)
		}
	}
	_, err := WizardSpec(WizardInput{Name: "x", Program: "mm", AgentConfigFile: "agent.yaml"})
	var we *WizardError
	if !errors.As(err, &we) || we.Field != FieldAgentConfigFile {
		t.Errorf("a relative file without a base: %v", err)
	}
}

// The wizard's own refusals, in both languages, naming the field.
func TestWizardSpecRefuses(t *testing.T) {
	for _, tt := range []struct {
		name   string
		in     WizardInput
		field  string
		en, fr string
	}{
		{"unterminated double quote", WizardInput{Name: "x", Program: "mm", Arguments: `--acp --config "my agent.yaml`},
			FieldArguments,
			`arguments: the quote " opened at character 16 is not closed`,
			`arguments : le guillemet " ouvert au caractère 16 n'est pas fermé`},
		{"unterminated single quote in the program", WizardInput{Name: "x", Program: "'my prog"},
			FieldProgram,
			`program: the quote ' opened at character 1 is not closed`,
			`programme : le guillemet ' ouvert au caractère 1 n'est pas fermé`},
		{"unterminated quote in a lifecycle command", WizardInput{Name: "x", Where: WhereSbx, Sandbox: "s", Program: "mm", StopCommand: `sbx stop "s`},
			FieldStopCommand,
			`command that stops the sandbox: the quote " opened at character 10 is not closed`,
			`commande qui arrête la sandbox : le guillemet " ouvert au caractère 10 n'est pas fermé`},
		{"container without a program", WizardInput{Name: "x", Where: WhereContainer, Container: "box"},
			FieldProgram,
			"program: the program the agent runs inside is missing",
			"programme : il manque le programme que l'agent lance à l'intérieur"},
		{"lifecycle on this computer", WizardInput{Name: "x", Program: "mm", CreateCommand: "make box"},
			FieldLifecycleFolder,
			"folder where the commands run: the lifecycle commands are for an agent in a container or a sandbox",
			"dossier où les commandes sont lancées : les commandes du cycle de vie sont pour un agent dans un conteneur ou une sandbox"},
		{"unknown place", WizardInput{Name: "x", Program: "mm", Where: "moon\x1b"},
			FieldWhere,
			`where it runs: "moon\x1b" is not a place an agent runs: local, container or sbx`,
			`où il tourne : « moon\x1b » n'est pas un endroit où tourne un agent : local, container ou sbx`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := WizardSpec(tt.in)
			var we *WizardError
			if !errors.As(err, &we) {
				t.Fatalf("WizardSpec = %v; want a *WizardError", err)
			}
			if we.Field != tt.field || we.Message(i18n.English) != tt.en || we.Message(i18n.French) != tt.fr || err.Error() != tt.en {
				t.Errorf("field %q\n en %q\n fr %q\nwant %q\n en %q\n fr %q", we.Field, we.Message(i18n.English), we.Message(i18n.French), tt.field, tt.en, tt.fr)
			}
			// PreviewWizard gives the same refusal, and nothing reaches the file.
			path := wizardConfig(t, "original.yaml")
			if _, err := PreviewWizard(path, tt.in); !errors.As(err, &we) || we.Message(i18n.English) != tt.en {
				t.Errorf("PreviewWizard = %v", err)
			}
		})
	}
}

// What the loader refuses comes back as its own Diagnostics, in the file's language, and
// nothing is written.
func TestWizardRefusedWithTheLoadersMessages(t *testing.T) {
	for _, tt := range []struct {
		name     string
		original string
		in       WizardInput
		want     string
	}{
		{"bad name, en", "original.yaml", WizardInput{Name: "Alice Smith", Program: "mm"},
			`line 23 — agents[2].name: "Alice Smith" is not a valid name: lower case letters, digits, "-" or "_", no spaces, starting with a letter (e.g. "alice")`},
		{"bad name, fr", "original.fr.yaml", WizardInput{Name: "Alice Smith", Program: "mm"},
			`ligne 23 — agents[2].name : « Alice Smith » n'est pas un nom valide : minuscules, chiffres, « - » ou « _ », sans espace, en commençant par une lettre (ex. « alice »)`},
		{"name taken, en", "original.yaml", WizardInput{Name: "bob", Program: "mm"},
			""},
		{"name taken, fr", "original.fr.yaml", WizardInput{Name: "bob", Program: "mm"},
			""},
		{"no program, en", "original.yaml", WizardInput{Name: "carol", Arguments: "--acp"},
			`line 23 — agents[2]: missing key "command"`},
		{"no program, fr", "original.fr.yaml", WizardInput{Name: "carol", Arguments: "--acp"},
			`ligne 23 — agents[2] : il manque la clé « command »`},
		{"container without its name, fr", "original.fr.yaml", WizardInput{Name: "carol", Where: WhereContainer, Program: "mm"},
			""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := wizardConfig(t, tt.original)
			original := fileText(t, path)
			_, err := PreviewWizard(path, tt.in)
			var diags Diagnostics
			if !errors.As(err, &diags) || !diags.HasErrors() {
				t.Fatalf("PreviewWizard = %v; want the loader's diagnostics", err)
			}
			// The very diagnostics the loader gives the file the wizard would have written.
			spec, err := WizardSpec(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			wouldBe := strings.Replace(original, "\n# Channels created", "\n"+indentLines(string(RenderAgent(spec)), "  ")+"\n# Channels created", 1)
			_, want := Parse(path, []byte(wouldBe))
			if diags.Error() != want.Error() {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", diags.Error(), want.Error())
			}
			if tt.want != "" && diags.Error() != tt.want {
				t.Errorf("message:\n%s\nwant:\n%s", diags.Error(), tt.want)
			}
			if lang := LanguageOf([]byte(original)); !strings.HasPrefix(diags.Error(), map[i18n.Lang]string{i18n.English: "line ", i18n.French: "ligne "}[lang]) {
				t.Errorf("the message is not in the file's language (%s): %s", lang, diags.Error())
			}
			// Applying anyway (a preview made before the file changed) writes nothing.
			err = ApplyWizard(path, WizardPreview{Spec: spec, Agent: RenderAgent(spec)})
			if !errors.As(err, &diags) || diags.Error() != want.Error() {
				t.Errorf("ApplyWizard = %v", err)
			}
			if fileText(t, path) != original {
				t.Error("the file was changed")
			}
		})
	}
}

// A preview made before someone else added an agent of the same name is refused when
// applied, with the loader's message, and the file keeps the other's change.
func TestWizardApplyAfterTheFileChanged(t *testing.T) {
	path := wizardConfig(t, "original.yaml")
	p, err := PreviewWizard(path, WizardInput{Name: "carol", Program: "mm"})
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(fileText(t, path), "  - name: bob", "  - name: carol", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	var diags Diagnostics
	if err := ApplyWizard(path, p); !errors.As(err, &diags) || !strings.Contains(diags.Error(), "agents[2].name") {
		t.Fatalf("ApplyWizard = %v; want the loader's message about the name", err)
	}
	if fileText(t, path) != changed {
		t.Error("the file was written")
	}
}

func TestWizardPreviewOfAMissingFile(t *testing.T) {
	_, err := PreviewWizard(filepath.Join(t.TempDir(), "none.yaml"), WizardInput{Name: "x", Program: "mm"})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("PreviewWizard = %v; want a not-exist error", err)
	}
}

func TestChangedLines(t *testing.T) {
	for _, tt := range []struct{ before, after, want string }{
		{"a\nb\n", "a\nx\nb\n", "x\n"},
		{"a\n\nb\n", "a\n\nx\ny\n\nb\n", "x\ny\n"},
		{"a\nb", "a\nb\nx\n", "b\nx\n"},
		{"agents: []\n", "agents:\n  - x\n", "agents:\n  - x\n"},
		{"a\r\nb\r\n", "a\r\nx\r\nb\r\n", "x\r\n"},
	} {
		if got := changedLines([]byte(tt.before), []byte(tt.after)); !bytes.Equal(got, []byte(tt.want)) {
			t.Errorf("changedLines(%q, %q) = %q; want %q", tt.before, tt.after, got, tt.want)
		}
	}
}
