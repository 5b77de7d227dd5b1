package convo

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Labels are the words the view writes itself, in the user's language: the caller takes
// them from the UI catalogue, or from LabelsFor. An empty field gets the English default.
type Labels struct {
	// You labels the user's messages: "You", "Vous".
	You string
	// Thought labels an agent's thought: "Thinking", "Réflexion".
	Thought string
	// Dropped says how many bytes an entry lost to the 1 MiB cap: "… 12,345 bytes dropped",
	// "… 12 345 octets perdus".
	Dropped func(bytes int64) string
	// ToolStatus names a tool call's status (pending, in_progress, completed, failed) in the
	// user's language; the status as the agent sent it when nil or when it returns "".
	ToolStatus func(status string) string
	// Terminal is the line that stands for a tool call's terminal output: "terminal t-1".
	Terminal func(id string) string
	// TerminalState says how a terminal's command is doing, after Terminal: "running —
	// Alt-K kills it", "exit 3", "killed (SIGKILL)"; a note when older output was dropped.
	TerminalState func(t chat.TerminalOutput) string
	// ToolKind names a tool call's kind (read, edit, execute…) in the user's language; the
	// kind as the agent sent it when nil or when it returns "".
	ToolKind func(kind string) string
	// NotFinished is the state of a tool call its turn left pending or in progress: "not
	// finished", "non terminé".
	NotFinished string
	// MoreLocations says how many files of a tool call are not listed: "… 3 more files".
	MoreLocations func(n int) string
	// Interrupted ends an entry that Sidekicks stopped before it was finished (see
	// chat.Entry.Interrupted): "… interrupted: Sidekicks stopped before this was finished".
	Interrupted string
}

// label is a word of the view's, in labelsEN and labelsFR.
type label int

// The labels.
const (
	labelYou label = iota
	labelThought
	labelDropped
	labelPending
	labelInProgress
	labelCompleted
	labelFailed
	labelTerminal
	labelNotFinished
	labelMoreLocations
	labelKindRead
	labelKindEdit
	labelKindDelete
	labelKindMove
	labelKindSearch
	labelKindExecute
	labelKindThink
	labelKindFetch
	labelKindSwitchMode
	labelKindOther
	labelInterrupted
	labelTermRunning
	labelCount // not a label: the number of labels
)

var labelsEN = [labelCount]string{
	labelYou:        "You",
	labelThought:    "Thinking",
	labelDropped:    "… %s bytes dropped",
	labelPending:    "pending",
	labelInProgress: "in progress",
	labelCompleted:  "completed",
	labelFailed:     "failed",
	labelTerminal:   "terminal %s",

	labelNotFinished:    "not finished",
	labelMoreLocations:  "… %d more files",
	labelKindRead:       "read",
	labelKindEdit:       "edit",
	labelKindDelete:     "delete",
	labelKindMove:       "move",
	labelKindSearch:     "search",
	labelKindExecute:    "execute",
	labelKindThink:      "think",
	labelKindFetch:      "fetch",
	labelKindSwitchMode: "switch mode",
	labelKindOther:      "other",
	labelInterrupted:    "… interrupted: Sidekicks stopped before this was finished",
	labelTermRunning:    "running — Alt-K kills it",
}

var labelsFR = [labelCount]string{
	labelYou:        "Vous",
	labelThought:    "Réflexion",
	labelDropped:    "… %s octets perdus",
	labelPending:    "en attente",
	labelInProgress: "en cours",
	labelCompleted:  "terminé",
	labelFailed:     "échoué",
	labelTerminal:   "terminal %s",

	labelNotFinished:    "non terminé",
	labelMoreLocations:  "… %d fichiers de plus",
	labelKindRead:       "lecture",
	labelKindEdit:       "modification",
	labelKindDelete:     "suppression",
	labelKindMove:       "déplacement",
	labelKindSearch:     "recherche",
	labelKindExecute:    "exécution",
	labelKindThink:      "réflexion",
	labelKindFetch:      "téléchargement",
	labelKindSwitchMode: "changement de mode",
	labelKindOther:      "autre",
	labelInterrupted:    "… interrompu : Sidekicks s'est arrêté avant la fin",
	labelTermRunning:    "en cours — Alt-K l'arrête",
}

// catalogue holds the view's labels in every language.
var catalogue = i18n.NewCatalogue[label](labelsEN[:], labelsFR[:])

// toolStatuses are the labels of the statuses of a tool call, as the protocol names them.
var toolStatuses = map[string]label{
	"pending":     labelPending,
	"in_progress": labelInProgress,
	"completed":   labelCompleted,
	"failed":      labelFailed,
}

// toolKinds are the labels of the kinds of a tool call, as the protocol names them.
var toolKinds = map[string]label{
	"read":        labelKindRead,
	"edit":        labelKindEdit,
	"delete":      labelKindDelete,
	"move":        labelKindMove,
	"search":      labelKindSearch,
	"execute":     labelKindExecute,
	"think":       labelKindThink,
	"fetch":       labelKindFetch,
	"switch_mode": labelKindSwitchMode,
	"other":       labelKindOther,
}

// labelOf returns the label of a protocol word in lang, "" when it has none.
func labelOf(lang i18n.Lang, labels map[string]label, word string) string {
	if k, ok := labels[word]; ok {
		return catalogue.Text(lang, k)
	}
	return ""
}

// LabelsFor returns the labels in a language. The UI catalogue may use them as they are
// or replace any of them.
func LabelsFor(lang i18n.Lang) Labels {
	return Labels{
		You:     catalogue.Text(lang, labelYou),
		Thought: catalogue.Text(lang, labelThought),
		Dropped: func(n int64) string {
			digits := groupDigits(n)
			if lang == i18n.French {
				digits = strings.ReplaceAll(digits, ",", " ")
			}
			return catalogue.Text(lang, labelDropped, digits)
		},
		ToolStatus:    func(s string) string { return labelOf(lang, toolStatuses, s) },
		ToolKind:      func(s string) string { return labelOf(lang, toolKinds, s) },
		Terminal:      func(id string) string { return catalogue.Text(lang, labelTerminal, id) },
		TerminalState: func(t chat.TerminalOutput) string { return terminalState(lang, t) },
		NotFinished:   catalogue.Text(lang, labelNotFinished),
		MoreLocations: func(n int) string { return catalogue.Text(lang, labelMoreLocations, n) },
		Interrupted:   catalogue.Text(lang, labelInterrupted),
	}
}

// terminalState says how a terminal's command is doing, in lang.
func terminalState(lang i18n.Lang, t chat.TerminalOutput) string {
	if !t.Exited {
		if end := t.Ending(lang); end != "" {
			return catalogue.Text(lang, labelTermRunning) + ", " + end
		}
		return catalogue.Text(lang, labelTermRunning)
	}
	return t.Ending(lang)
}
