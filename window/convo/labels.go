package convo

import (
	"strings"

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
		ToolStatus: func(s string) string {
			if k, ok := toolStatuses[s]; ok {
				return catalogue.Text(lang, k)
			}
			return ""
		},
		Terminal: func(id string) string { return catalogue.Text(lang, labelTerminal, id) },
	}
}
