package runtime

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// exitLacking is execScript's status for a program, or an option of one, that the image
// lacks.
const exitLacking = 72

// ToolsMissingError is a file operation in a container or sandbox whose image lacks what
// the operation runs: sh itself, or a program of execScript (readlink -f, stat -c, head…).
// Text says it in the user's language, with what the image needs.
type ToolsMissingError struct {
	Engine  string // "docker" or "sbx"
	Target  string // the container or the sandbox
	Missing string // what is missing, as the script printed it: "readlink, stat", "stat -c"
}

func (e *ToolsMissingError) Error() string { return e.Text(i18n.English) }

// Text says what is missing, in lang.
func (e *ToolsMissingError) Text(lang i18n.Lang) string {
	key := mToolsContainer
	if e.Engine == "sbx" {
		key = mToolsSandbox
	}
	return toolsTexts.Text(lang, key, safetext.Line(e.Target), safetext.Line(strings.TrimSpace(e.Missing)))
}

// missingShell tells a docker or sbx exec that could not start sh (the image has none)
// from its stderr: "exec: "sh": executable file not found in $PATH".
func missingShell(code int, stderr string) bool {
	return (code == 126 || code == 127) && strings.Contains(stderr, `"sh"`) &&
		(strings.Contains(stderr, "not found") || strings.Contains(stderr, "no such file"))
}

type toolsKey int

const (
	mToolsContainer toolsKey = iota
	mToolsSandbox
	toolsKeyCount
)

var toolsTextsEN = [toolsKeyCount]string{
	mToolsContainer: "the container %q lacks %s: its files are reached with sh, readlink -f, stat -c, head, tail, cat, find, mkdir, mktemp, mv, rm and chmod, which its image must have",
	mToolsSandbox:   "the sandbox %q lacks %s: its files are reached with sh, readlink -f, stat -c, head, tail, cat, find, mkdir, mktemp, mv, rm and chmod, which it must have",
}

var toolsTextsFR = [toolsKeyCount]string{
	mToolsContainer: "il manque %[2]s au conteneur %[1]q : ses fichiers passent par sh, readlink -f, stat -c, head, tail, cat, find, mkdir, mktemp, mv, rm et chmod, que son image doit avoir",
	mToolsSandbox:   "il manque %[2]s à la sandbox %[1]q : ses fichiers passent par sh, readlink -f, stat -c, head, tail, cat, find, mkdir, mktemp, mv, rm et chmod, qu'elle doit avoir",
}

var toolsTexts = i18n.NewCatalogue[toolsKey](toolsTextsEN[:], toolsTextsFR[:])
