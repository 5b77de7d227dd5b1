package config

import (
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// specFile puts the specification's two first mistakes at the lines its table shows:
// the name on line 12, the misspelt key on line 14.
const specFile = `version: 1

ui:
  theme: system
  language: %s

limits:
  maxRunningAgents: 2
  stopIdleAgentsAfter: 10m

agents:
  - name: Alice Smith
    title: Alice
    comand: mm
`

// missingCommand leaves out command from the agent of line 3.
const missingCommand = `version: 1
agents:
  - name: alice
    title: Alice
ui: {language: %s}
`

func TestSpecMessagesFrench(t *testing.T) {
	_, d := parseText(t, strings.Replace(specFile, "%s", "fr", 1))
	wantMessages(t, messages(d),
		"ligne 12 — agents[0] : il manque la clé « command »",
		"ligne 12 — agents[0].name : « Alice Smith » n'est pas un nom valide : minuscules, chiffres, « - » ou « _ », sans espace, en commençant par une lettre (ex. « alice »)",
		"ligne 14 — agents[0].comand : clé inconnue « comand » ; vouliez-vous dire « command » ?",
	)
	_, d = parseText(t, strings.Replace(missingCommand, "%s", "fr", 1))
	wantMessages(t, messages(d), "ligne 3 — agents[0] : il manque la clé « command »")
}

func TestSpecMessagesEnglish(t *testing.T) {
	_, d := parseText(t, strings.Replace(specFile, "%s", "en", 1))
	wantMessages(t, messages(d),
		`line 12 — agents[0]: missing key "command"`,
		`line 12 — agents[0].name: "Alice Smith" is not a valid name: lower case letters, digits, "-" or "_", no spaces, starting with a letter (e.g. "alice")`,
		`line 14 — agents[0].comand: unknown key "comand"; did you mean "command"?`,
	)
	_, d = parseText(t, strings.Replace(missingCommand, "%s", "en", 1))
	wantMessages(t, messages(d), `line 3 — agents[0]: missing key "command"`)
}

func TestDiagnosticFields(t *testing.T) {
	_, d := parseText(t, strings.Replace(specFile, "%s", "en", 1))
	if len(d) != 3 {
		t.Fatalf("got %d diagnostics, want 3", len(d))
	}
	for i, want := range []struct {
		line, column int
		key          string
	}{{12, 5, "agents[0]"}, {12, 5, "agents[0].name"}, {14, 5, "agents[0].comand"}} {
		if d[i].Line != want.line || d[i].Column != want.column || d[i].Key != want.key || d[i].Warning {
			t.Errorf("diagnostic %d = line %d column %d key %q warning %v, want line %d column %d key %q error",
				i, d[i].Line, d[i].Column, d[i].Key, d[i].Warning, want.line, want.column, want.key)
		}
	}
}

// TestViolationMessages checks the message of each kind of mistake, in both languages.
// Each document is written after "version: 1\n" with ui.language set.
func TestViolationMessages(t *testing.T) {
	const agentA = "version: 1\nagents:\n  - name: a\n    command: /bin/sh\n"
	for _, c := range []struct {
		name, doc, en, fr string
	}{
		{"version", "version: 2\nagents: []\n",
			`line 1 — version: "2" is not a known version: the only version of the format is 1 (write version: 1)`,
			"ligne 1 — version : « 2 » n'est pas une version connue : la seule version du format est 1 (écrivez version: 1)"},
		{"version text", "version: \"1\"\nagents: []\n",
			`line 1 — version: must be a number, not text: write version: 1, without quotes`,
			"ligne 1 — version : doit être un nombre, pas un texte : écrivez version: 1, sans guillemets"},
		{"missing version", "agents: []\n",
			`line 1 — missing key "version": add version: 1 at the top of the file`,
			"ligne 1 — il manque la clé « version » : ajoutez version: 1 en haut du fichier"},
		{"missing agents", "version: 1\n",
			`line 1 — missing key "agents": add the list of agents, or agents: [] for none`,
			"ligne 1 — il manque la clé « agents » : ajoutez la liste des agents, ou agents: [] s'il n'y en a aucun"},
		{"agents not a list", "version: 1\nagents: alice\n",
			`line 2 — agents: must be a list of agents, each starting with "- name:"; write agents: [] for none`,
			"ligne 2 — agents : doit être une liste d'agents, chacun commençant par « - name: » ; écrivez agents: [] s'il n'y en a aucun"},
		{"agent not a mapping", "version: 1\nagents:\n  - alice\n",
			`line 3 — agents[0]: an agent must be a mapping of keys (name:, command:, …), not text`,
			"ligne 3 — agents[0] : un agent doit être un ensemble de clés (name:, command:, …), pas un texte"},
		{"unknown root key, no suggestion", "version: 1\nagents: []\nzzz: 1\n",
			`line 3 — zzz: unknown key "zzz"; the keys allowed here: agents, channels, limits, ui, version`,
			"ligne 3 — zzz : clé inconnue « zzz » ; les clés possibles ici : agents, channels, limits, ui, version"},
		{"unknown key by prefix", "version: 1\nagents: []\nui: {lang: fr}\n",
			`line 3 — ui.lang: unknown key "lang"; did you mean "language"?`,
			"ligne 3 — ui.lang : clé inconnue « lang » ; vouliez-vous dire « language » ?"},
		{"unknown key by case", "version: 1\nagents: []\nlimits: {MaxRunningAgents: 3}\n",
			`line 3 — limits.MaxRunningAgents: unknown key "MaxRunningAgents"; did you mean "maxRunningAgents"?`,
			"ligne 3 — limits.MaxRunningAgents : clé inconnue « MaxRunningAgents » ; vouliez-vous dire « maxRunningAgents » ?"},
		{"theme", "version: 1\nagents: []\nui: {theme: blue}\n",
			`line 3 — ui.theme: "blue" is not allowed here: use system, light or dark`,
			"ligne 3 — ui.theme : « blue » n'est pas permis ici : utilisez system, light ou dark"},
		{"language type", "version: 1\nagents: []\nui:\n  theme: [dark]\n",
			`line 4 — ui.theme: must be text, not a list`,
			"ligne 4 — ui.theme : doit être un texte, pas une liste"},
		{"ui not a mapping", "version: 1\nagents: []\nui: dark\n",
			`line 3 — ui: must be a mapping of keys, one "key: value" per line, not text`,
			"ligne 3 — ui : doit être un ensemble de clés, une « clé: valeur » par ligne, pas un texte"},
		{"max running zero", "version: 1\nagents: []\nlimits:\n  maxRunningAgents: 0\n",
			`line 4 — limits.maxRunningAgents: must be 1 or more, not 0`,
			"ligne 4 — limits.maxRunningAgents : doit valoir 1 ou plus, pas 0"},
		{"max running fraction", "version: 1\nagents: []\nlimits:\n  maxRunningAgents: 1.5\n",
			`line 4 — limits.maxRunningAgents: must be a whole number (e.g. 2), not 1.5`,
			"ligne 4 — limits.maxRunningAgents : doit être un nombre entier (ex. 2), pas 1.5"},
		{"max running text", "version: 1\nagents: []\nlimits:\n  maxRunningAgents: two\n",
			`line 4 — limits.maxRunningAgents: must be a whole number (e.g. 2), not text`,
			"ligne 4 — limits.maxRunningAgents : doit être un nombre entier (ex. 2), pas un texte"},
		{"duration words", "version: 1\nagents: []\nlimits:\n  stopIdleAgentsAfter: 10 minutes\n",
			`line 4 — limits.stopIdleAgentsAfter: "10 minutes" is not a duration: write a number followed by a unit, such as 30s, 10m or 1h30m, or 0 to never stop an idle agent`,
			"ligne 4 — limits.stopIdleAgentsAfter : « 10 minutes » n'est pas une durée : écrivez un nombre suivi d'une unité, comme 30s, 10m ou 1h30m, ou 0 pour ne jamais arrêter un agent inutilisé"},
		{"duration number", "version: 1\nagents: []\nlimits:\n  stopIdleAgentsAfter: 10\n",
			`line 4 — limits.stopIdleAgentsAfter: "10" is not a duration: write a number followed by a unit, such as 30s, 10m or 1h30m, or 0 to never stop an idle agent`,
			"ligne 4 — limits.stopIdleAgentsAfter : « 10 » n'est pas une durée : écrivez un nombre suivi d'une unité, comme 30s, 10m ou 1h30m, ou 0 pour ne jamais arrêter un agent inutilisé"},
		{"duration overflow", "version: 1\nagents: []\nlimits:\n  stopIdleAgentsAfter: 9999999h\n",
			`line 4 — limits.stopIdleAgentsAfter: "9999999h" is too long: a duration is at most 2562047h (about 292 years); write 0 to never stop an idle agent`,
			"ligne 4 — limits.stopIdleAgentsAfter : « 9999999h » est trop long : une durée vaut au plus 2562047h (environ 292 ans) ; écrivez 0 pour ne jamais arrêter un agent inutilisé"},
		{"name too long", "version: 1\nagents:\n  - name: abcdefghijabcdefghijabcdefghijabc\n    command: /bin/sh\n",
			`line 3 — agents[0].name: "abcdefghijabcdefghijabcdefghijabc" is too long: 33 characters, 32 at most`,
			"ligne 3 — agents[0].name : « abcdefghijabcdefghijabcdefghijabc » est trop long : 33 caractères, 32 au plus"},
		{"name number", "version: 1\nagents:\n  - name: 12\n    command: /bin/sh\n",
			`line 3 — agents[0].name: must be text, not a number: put it in quotes, "12"`,
			`ligne 3 — agents[0].name : doit être un texte, pas un nombre : mettez-le entre guillemets, "12"`},
		{"command empty", "version: 1\nagents:\n  - name: a\n    command: \"\"\n",
			`line 4 — agents[0].command: must not be empty`,
			"ligne 4 — agents[0].command : ne doit pas être vide"},
		{"args text", agentA + "    args: --acp\n",
			`line 5 — agents[0].args: must be a list, not text: write the items in brackets, e.g. [--acp, --verbose]`,
			"ligne 5 — agents[0].args : doit être une liste, pas un texte : écrivez les éléments entre crochets, ex. [--acp, --verbose]"},
		{"afterStop text", agentA + "    afterStop: ./unload.sh\n",
			`line 5 — agents[0].afterStop: must be a list, not text: write the items in brackets, e.g. [../scripts/agents.sh, unload, alice]`,
			"ligne 5 — agents[0].afterStop : doit être une liste, pas un texte : écrivez les éléments entre crochets, ex. [../scripts/agents.sh, unload, alice]"},
		{"protect text", agentA + "    protect: notes.md\n",
			`line 5 — agents[0].protect: must be a list, not text: write the items in brackets, e.g. [AGENTS.md, "skills/**"]`,
			`ligne 5 — agents[0].protect : doit être une liste, pas un texte : écrivez les éléments entre crochets, ex. [AGENTS.md, "skills/**"]`},
		{"channel members text", "version: 1\nagents: []\nchannels:\n  - name: team\n    agents: alice\n",
			`line 5 — channels[0].agents: must be a list, not text: write the items in brackets, e.g. [alice, bob]`,
			"ligne 5 — channels[0].agents : doit être une liste, pas un texte : écrivez les éléments entre crochets, ex. [alice, bob]"},
		{"args number item", agentA + "    args: [--port, 8080]\n",
			`line 5 — agents[0].args[1]: must be text, not a number: put it in quotes, "8080"`,
			`ligne 5 — agents[0].args[1] : doit être un texte, pas un nombre : mettez-le entre guillemets, "8080"`},
		{"env null", agentA + "    env:\n      DEBUG:\n",
			`line 6 — agents[0].env.DEBUG: must be text, not empty; write "" for an empty text`,
			`ligne 6 — agents[0].env.DEBUG : doit être un texte, pas vide ; écrivez "" pour un texte vide`},
		{"env name", agentA + "    env: {\"A=B\": x}\n",
			`line 5 — agents[0].env.A=B: "A=B" is not a valid environment variable name: it must not be empty nor contain "="`,
			`ligne 5 — agents[0].env.A=B : « A=B » n'est pas un nom de variable d'environnement valide : il ne doit être ni vide ni contenir « = »`},
		{"env list", agentA + "    env: [A=1]\n",
			`line 5 — agents[0].env: must be a mapping of keys, one "key: value" per line, not a list`,
			"ligne 5 — agents[0].env : doit être un ensemble de clés, une « clé: valeur » par ligne, pas une liste"},
		{"afterStop empty", agentA + "    afterStop: []\n",
			`line 5 — agents[0].afterStop: the list is empty: give at least the program, then its arguments (e.g. [./unload.sh, alice])`,
			"ligne 5 — agents[0].afterStop : la liste est vide : donnez au moins le programme, puis ses arguments (ex. [./unload.sh, alice])"},
		{"lifecycle create empty", agentA + "    runtime:\n      type: sbx\n      sandbox: s\n      lifecycle:\n        create: []\n",
			`line 9 — agents[0].runtime.lifecycle.create: the list is empty: give at least the program, then its arguments (e.g. [./unload.sh, alice])`,
			"ligne 9 — agents[0].runtime.lifecycle.create : la liste est vide : donnez au moins le programme, puis ses arguments (ex. [./unload.sh, alice])"},
		{"runtime type", agentA + "    runtime: {type: docker}\n",
			`line 5 — agents[0].runtime.type: "docker" is not allowed here: use local, container or sbx`,
			"ligne 5 — agents[0].runtime.type : « docker » n'est pas permis ici : utilisez local, container ou sbx"},
		{"runtime without type", agentA + "    runtime:\n      container: box\n",
			`line 5 — agents[0].runtime: missing key "type": local, container or sbx`,
			"ligne 5 — agents[0].runtime : il manque la clé « type » : local, container ou sbx"},
		{"container without container", agentA + "    runtime:\n      type: container\n",
			`line 5 — agents[0].runtime: missing key "container": the name of the Docker container, required with type: container`,
			"ligne 5 — agents[0].runtime : il manque la clé « container » : le nom du conteneur Docker, obligatoire avec type: container"},
		{"sbx without sandbox", agentA + "    runtime:\n      type: sbx\n",
			`line 5 — agents[0].runtime: missing key "sandbox": the name of the sbx sandbox, required with type: sbx`,
			"ligne 5 — agents[0].runtime : il manque la clé « sandbox » : le nom de la sandbox sbx, obligatoire avec type: sbx"},
		{"container key on local", agentA + "    runtime:\n      type: local\n      container: box\n",
			`line 7 — agents[0].runtime.container: the key "container" does not go with type: local; it is only for type: container: remove it, or change the type`,
			"ligne 7 — agents[0].runtime.container : la clé « container » ne va pas avec type: local ; elle ne sert qu'avec type: container : retirez-la, ou changez de type"},
		{"workspacePath on local, not also its value", agentA + "    runtime:\n      type: local\n      workspacePath: w\n",
			`line 7 — agents[0].runtime.workspacePath: the key "workspacePath" does not go with type: local; it is only for type: container or type: sbx: remove it, or change the type`,
			"ligne 7 — agents[0].runtime.workspacePath : la clé « workspacePath » ne va pas avec type: local ; elle ne sert qu'avec type: container ou type: sbx : retirez-la, ou changez de type"},
		{"workspacePath relative", agentA + "    runtime:\n      type: sbx\n      sandbox: s\n      workspacePath: work\n",
			`line 8 — agents[0].runtime.workspacePath: "work" is not an absolute path: write the folder as the container or sandbox sees it, from the root (e.g. /workspace)`,
			"ligne 8 — agents[0].runtime.workspacePath : « work » n'est pas un chemin absolu : écrivez le dossier tel que le conteneur ou la sandbox le voit, depuis la racine (ex. /workspace)"},
		{"channel name too long", "version: 1\nagents: []\nchannels:\n  - name: " + strings.Repeat("é", 65) + "\n",
			`line 4 — channels[0].name: "` + strings.Repeat("é", 60) + `…" is too long: 65 characters, 64 at most`,
			"ligne 4 — channels[0].name : « " + strings.Repeat("é", 60) + "… » est trop long : 65 caractères, 64 au plus"},
		{"channel name empty", "version: 1\nagents: []\nchannels:\n  - name: \"\"\n",
			`line 4 — channels[0].name: must not be empty`,
			"ligne 4 — channels[0].name : ne doit pas être vide"},
		{"channel member twice", agentA + "channels:\n  - name: x\n    agents: [a, a]\n",
			`line 7 — channels[0].agents[1]: "a" is listed twice (also at channels[0].agents[0]); keep only one`,
			"ligne 7 — channels[0].agents[1] : « a » figure deux fois (aussi en channels[0].agents[0]) ; n'en gardez qu'un"},
		{"channel not a mapping", "version: 1\nagents: []\nchannels: [general]\n",
			`line 3 — channels[0]: a channel must be a mapping of keys (name:, agents:, …), not text`,
			"ligne 3 — channels[0] : un channel doit être un ensemble de clés (name:, agents:, …), pas un texte"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
				// The language comes from LANG here, so that the documents stay as
				// written; TestLanguage checks ui.language.
				t.Setenv("LANG", map[i18n.Lang]string{i18n.English: "C", i18n.French: "fr_FR.UTF-8"}[lang])
				t.Setenv("PATH", t.TempDir())
				_, d := parseIn(t, t.TempDir(), c.doc)
				want := c.en
				if lang == i18n.French {
					want = c.fr
				}
				wantMessages(t, errorsOnly(d), want)
			}
		})
	}
}

func TestMessagesNeverShowTheSchema(t *testing.T) {
	_, d := parseText(t, "version: 2\nagents:\n  - {name: B, command: \"\", args: 1, runtime: {type: x}}\nlimits: {stopIdleAgentsAfter: 1x}\n")
	if len(d) < 4 {
		t.Fatalf("got %d diagnostics, want at least 4: %v", len(d), messages(d))
	}
	for _, m := range messages(d) {
		for _, raw := range []string{"jsonschema", "want ", "got ", "minLength", "anyOf", "pattern", "additional properties", "false schema"} {
			if strings.Contains(m, raw) {
				t.Errorf("message %q shows the schema's own text %q", m, raw)
			}
		}
	}
}

// What printable escapes is safetext.Escaped's (its cases moved there, as TestEscaped);
// printable itself escapes and then cuts after maxShown characters of the file's text.
func TestPrintable(t *testing.T) {
	if got := printable("\x1b[31mred"); got != `\x1b[31mred` {
		t.Errorf("printable(%q) = %q", "\x1b[31mred", got)
	}
	long := strings.Repeat("x", 100)
	if got := printable(long); got != strings.Repeat("x", 60)+"…" {
		t.Errorf("printable of 100 characters = %q", got)
	}
	escapedLong := "\x1b" + strings.Repeat("é", 100)
	if got, want := printable(escapedLong), `\x1b`+strings.Repeat("é", 59)+"…"; got != want {
		t.Errorf("printable(%q) = %q, want %q", escapedLong, got, want)
	}
}

func TestSummary(t *testing.T) {
	e := Diagnostic{Message: "e"}
	w := Diagnostic{Message: "w", Warning: true}
	for _, c := range []struct {
		d      Diagnostics
		en, fr string
	}{
		{nil, "configuration OK", "configuration valide"},
		{Diagnostics{w}, "configuration OK (1 warning)", "configuration valide (1 avertissement)"},
		{Diagnostics{w, w}, "configuration OK (2 warnings)", "configuration valide (2 avertissements)"},
		{Diagnostics{e}, "1 error", "1 erreur"},
		{Diagnostics{e, w, e}, "2 errors, 1 warning", "2 erreurs, 1 avertissement"},
	} {
		if got := Summary(i18n.English, c.d); got != c.en {
			t.Errorf("Summary(en) = %q, want %q", got, c.en)
		}
		if got := Summary(i18n.French, c.d); got != c.fr {
			t.Errorf("Summary(fr) = %q, want %q", got, c.fr)
		}
	}
	if WarningMark(i18n.English) != "warning: " || WarningMark(i18n.French) != "avertissement : " {
		t.Errorf("WarningMark = %q, %q", WarningMark(i18n.English), WarningMark(i18n.French))
	}
}

func TestNewDiagnosticWithoutLine(t *testing.T) {
	d := newDiagnostic("/f", i18n.French, 0, 0, "agents[0]", "texte", true)
	if d.Message != "agents[0] : texte" || !d.Warning || d.File != "/f" {
		t.Errorf("got %+v", d)
	}
	d = newDiagnostic("/f", i18n.English, 3, 1, "", "text", false)
	if d.Message != "line 3 — text" {
		t.Errorf("got %q", d.Message)
	}
}

// TestCataloguesComplete: every message, and every file Sidekicks writes for the user,
// has both languages, with the same verbs in each.
func TestCataloguesComplete(t *testing.T) {
	for _, p := range slices.Concat(catalogue.Problems(mNone+1), projectCatalogue.Problems(pReading),
		starters.Problems(starterConfig)) {
		t.Error(p)
	}
}
