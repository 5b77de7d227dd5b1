package config

import (
	_ "embed"
	"strings"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

//go:embed default.en.yaml
var defaultEN string

//go:embed default.fr.yaml
var defaultFR string

// starter is a file Sidekicks writes for the user to start from, with its comments in
// each language: the default configuration and the project agents file.
type starter int

const (
	starterConfig starter = iota
	starterProject
)

// starters holds the files Sidekicks writes for the user, in every language.
var starters = i18n.NewCatalogue[starter](
	[]string{starterConfig: defaultEN, starterProject: projectStarterEN},
	[]string{starterConfig: defaultFR, starterProject: projectStarterFR})

// executablePlaceholder marks, in the embedded default files, where the demo agent's
// command goes.
const executablePlaceholder = "{{executable}}"

// DefaultFile is the commented default configuration, in English, that Locate creates
// when no configuration exists. Every key is explained; its one agent is the built-in
// demo agent, which needs no network: executable (the absolute path of the running
// Sidekicks) with the argument demo-agent. Commented examples show an mm agent, a
// container agent and an sbx agent, and a channel holds the demo agent. It loads without
// any error or warning.
func DefaultFile(executable string) []byte {
	return DefaultFileIn(i18n.English, executable)
}

// DefaultFileIn is DefaultFile with its comments in lang; the French file also sets
// ui.language to fr.
func DefaultFileIn(lang i18n.Lang, executable string) []byte {
	tmpl := starters.Text(lang, starterConfig)
	// A path that is not UTF-8 cannot be written in YAML; the demo agent is then looked
	// up in PATH by name.
	command := "sidekicks"
	if executable != "" && utf8.ValidString(executable) {
		command = executable
	}
	return []byte(strings.Replace(tmpl, executablePlaceholder, yamlScalar(command), 1))
}
