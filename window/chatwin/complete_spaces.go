package chatwin

import (
	"strings"
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// commandSpan is the command word the / list completes: commandWord, extended past a
// space when what is typed from the / to the cursor starts the name of a command that has
// a space in it (gemini-cli announces "memory list", "memory show"…). The list then stays
// open, narrows as the rest of the name is typed, and completes the whole name.
func commandSpan(text string, cursor int, commands []chat.Command) (from, to int, ok bool) {
	if from, to, ok = commandWord(text, cursor); ok || !strings.HasPrefix(text, "/") || cursor < 1 || cursor > len(text) {
		return from, to, ok
	}
	for _, c := range chat.FilterCommands(commands, text[1:cursor]) {
		if strings.ContainsFunc(c.Name, unicode.IsSpace) {
			to = len(text)
			if i := strings.IndexFunc(text[cursor:], unicode.IsSpace); i >= 0 {
				to = cursor + i
			}
			return 0, to, true
		}
	}
	return 0, 0, false
}
