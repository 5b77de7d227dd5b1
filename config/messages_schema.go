package config

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// The messages for the JSON Schema's violations: each says what is wrong and what to
// write instead.

// kindName names a JSON type the way a message says it ("text", "a list"…).
func kindName(lang, jsonType string) string {
	switch jsonType {
	case "string":
		return msg(lang, "text", "un texte")
	case "integer":
		return msg(lang, "a whole number", "un nombre entier")
	case "number":
		return msg(lang, "a number", "un nombre")
	case "boolean":
		return msg(lang, "true or false", "un booléen (true ou false)")
	case "array":
		return msg(lang, "a list", "une liste")
	case "object":
		return msg(lang, "a mapping of keys", "un ensemble de clés")
	case "null":
		return msg(lang, "empty", "vide")
	}
	return jsonType
}

// typeText says that a value has the wrong type, with an example of the right one.
func typeText(lang, shape string, want []string, got string, n *yaml.Node) string {
	switch shape {
	case "agents":
		return msg(lang,
			`must be a list of agents, each starting with "- name:"; write agents: [] for none`,
			"doit être une liste d'agents, chacun commençant par « - name: » ; écrivez agents: [] s'il n'y en a aucun")
	case "channels":
		return msg(lang,
			`must be a list of channels, each starting with "- name:"`,
			"doit être une liste de channels, chacun commençant par « - name: »")
	case "agents/*":
		return msg(lang,
			"an agent must be a mapping of keys (name:, command:, …), not "+kindName(lang, got),
			"un agent doit être un ensemble de clés (name:, command:, …), pas "+kindName(lang, got))
	case "channels/*":
		return msg(lang,
			"a channel must be a mapping of keys (name:, agents:, …), not "+kindName(lang, got),
			"un channel doit être un ensemble de clés (name:, agents:, …), pas "+kindName(lang, got))
	}
	if len(want) != 1 {
		var names []string
		for _, w := range want {
			names = append(names, kindName(lang, w))
		}
		return fmt.Sprintf(msg(lang, "must be %s, not %s", "doit être %s, pas %s"),
			list(lang, names), kindName(lang, got))
	}
	switch want[0] {
	case "string":
		if got == "null" {
			return msg(lang,
				`must be text, not empty; write "" for an empty text`,
				`doit être un texte, pas vide ; écrivez "" pour un texte vide`)
		}
		if s, ok := scalarText(n); ok {
			return fmt.Sprintf(msg(lang,
				"must be text, not %s: put it in quotes, %s",
				"doit être un texte, pas %s : mettez-le entre guillemets, %s"),
				kindName(lang, got), printable(`"`+s+`"`))
		}
		return fmt.Sprintf(msg(lang, "must be text, not %s", "doit être un texte, pas %s"), kindName(lang, got))
	case "integer":
		return fmt.Sprintf(msg(lang,
			"must be a whole number (e.g. 2), not %s",
			"doit être un nombre entier (ex. 2), pas %s"), kindName(lang, got))
	case "array":
		if got == "string" {
			return msg(lang,
				"must be a list, not text: write the items in brackets, e.g. [--acp, --verbose]",
				"doit être une liste, pas un texte : écrivez les éléments entre crochets, ex. [--acp, --verbose]")
		}
		return fmt.Sprintf(msg(lang,
			"must be a list (e.g. [a, b]), not %s",
			"doit être une liste (ex. [a, b]), pas %s"), kindName(lang, got))
	case "object":
		return fmt.Sprintf(msg(lang,
			"must be a mapping of keys, one \"key: value\" per line, not %s",
			"doit être un ensemble de clés, une « clé: valeur » par ligne, pas %s"), kindName(lang, got))
	}
	return fmt.Sprintf(msg(lang, "must be %s, not %s", "doit être %s, pas %s"),
		kindName(lang, want[0]), kindName(lang, got))
}

// patternText explains the form a text must have.
func patternText(lang, shape, shown string) string {
	switch shape {
	case "agents/*/name":
		return nameText(lang, shown)
	case "agents/*/runtime/workspacePath":
		return fmt.Sprintf(msg(lang,
			"%s is not an absolute path: write the folder as the container or sandbox sees it, from the root (e.g. /workspace)",
			"%s n'est pas un chemin absolu : écrivez le dossier tel que le conteneur ou la sandbox le voit, depuis la racine (ex. /workspace)"),
			shown)
	}
	return fmt.Sprintf(msg(lang, "%s is not valid here", "%s n'est pas valide ici"), shown)
}

// nameText is the specification's message for an agent name that is not an identifier.
func nameText(lang, shown string) string {
	return fmt.Sprintf(msg(lang,
		`%s is not a valid name: lower case letters, digits, "-" or "_", no spaces, starting with a letter (e.g. "alice")`,
		"%s n'est pas un nom valide : minuscules, chiffres, « - » ou « _ », sans espace, en commençant par une lettre (ex. « alice »)"),
		shown)
}

// durationText explains the form of stopIdleAgentsAfter.
func durationText(lang, shown string) string {
	return fmt.Sprintf(msg(lang,
		"%s is not a duration: write a number followed by a unit, such as 30s, 10m or 1h30m, or 0 to never stop an idle agent",
		"%s n'est pas une durée : écrivez un nombre suivi d'une unité, comme 30s, 10m ou 1h30m, ou 0 pour ne jamais arrêter un agent inutilisé"),
		shown)
}

// missingText says that a required key is absent, with what to write where it helps.
func missingText(lang, key string) string {
	base := fmt.Sprintf(msg(lang, "missing key %s", "il manque la clé %s"), q(lang, key))
	switch key {
	case "version":
		return base + msg(lang,
			": add version: 1 at the top of the file",
			" : ajoutez version: 1 en haut du fichier")
	case "agents":
		return base + msg(lang,
			": add the list of agents, or agents: [] for none",
			" : ajoutez la liste des agents, ou agents: [] s'il n'y en a aucun")
	case "type":
		return base + msg(lang,
			": local, container or sbx",
			" : local, container ou sbx")
	case "container":
		return base + msg(lang,
			": the name of the Docker container, required with type: container",
			" : le nom du conteneur Docker, obligatoire avec type: container")
	case "sandbox":
		return base + msg(lang,
			": the name of the sbx sandbox, required with type: sbx",
			" : le nom de la sandbox sbx, obligatoire avec type: sbx")
	}
	return base
}

// unknownKeyText reports an unknown key, suggesting the nearest known key when one is
// close and listing the known keys otherwise.
func unknownKeyText(lang, key string, known []string) string {
	if s := nearest(key, known); s != "" {
		return fmt.Sprintf(msg(lang,
			"unknown key %s; did you mean %s?",
			"clé inconnue %s ; vouliez-vous dire %s ?"), q(lang, key), q(lang, s))
	}
	if len(known) == 0 {
		return fmt.Sprintf(msg(lang, "unknown key %s", "clé inconnue %s"), q(lang, key))
	}
	return fmt.Sprintf(msg(lang,
		"unknown key %s; the keys allowed here: %s",
		"clé inconnue %s ; les clés possibles ici : %s"), q(lang, key), strings.Join(known, ", "))
}

// runtimeKeyTypes says with which runtime types each runtime key goes.
var runtimeKeyTypes = map[string][]string{
	"container":     {"container"},
	"sandbox":       {"sbx"},
	"workspacePath": {"container", "sbx"},
	"lifecycle":     {"container", "sbx"},
}

// notForTypeText reports a runtime key that does not go with the runtime's type.
func notForTypeText(lang string, location []string, runtimeType string) string {
	key := ""
	if len(location) > 0 {
		key = location[len(location)-1]
	}
	types := runtimeKeyTypes[key]
	var forTypes []string
	for _, t := range types {
		forTypes = append(forTypes, "type: "+t)
	}
	if len(forTypes) == 0 {
		return fmt.Sprintf(msg(lang,
			"the key %s is not allowed here",
			"la clé %s n'est pas permise ici"), q(lang, key))
	}
	return fmt.Sprintf(msg(lang,
		"the key %s does not go with type: %s; it is only for %s: remove it, or change the type",
		"la clé %s ne va pas avec type: %s ; elle ne sert qu'avec %s : retirez-la, ou changez de type"),
		q(lang, key), printable(runtimeType), list(lang, forTypes))
}

// joinQuoted quotes each word; used where a list of names is shown.
func joinQuoted(lang string, words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = q(lang, w)
	}
	return strings.Join(quoted, ", ")
}
