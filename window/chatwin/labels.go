package chatwin

import (
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// text is a text of the agent and channel windows: each has an English and a French
// version in textsEN and textsFR (labels_en.go, labels_fr.go). A text with verbs (%s, %d)
// is given its arguments.
type text int

// The texts.
const (
	textNone text = iota

	tOpening
	tOpenFailed
	tStarting
	tWaitingSlot
	tOpeningSession
	tWorking
	tCancelling
	tStateError
	tQueued
	tQueuedMore
	tListingFiles
	tSendFailed
	tHistoryFailed
	tLinesCopiedOne
	tLinesCopied
	tNothingToCopy
	tUsageTokens
	tUsageCost
	tHintSend
	tHintNewline
	tHintToConversation
	tHintToInput
	tHintCopy
	tHintSelect
	tHintComplete
	tHintCancelTurn
	tStatusCommands
	tStatusNoCommands
	tStatusUnknownUpdates
	tStatusLast
	tStatusLastError
	tStatusIgnored
	tStatusUnknownTools
	tStatusDropped
	tStatusBadLines
	tStatusOtherIgnored
	tStatusNothingIgnored
	tStatusAuth

	// The permission dialog.
	tPermissionTitle
	tPermissionAsks
	tKindAllowOnce
	tKindAllowAlways
	tKindRejectOnce
	tKindRejectAlways

	textCount
)

// tr returns a text in the language of l (the App's, which changes on a reload),
// formatted with args when it has verbs; one with no French version falls back to
// English.
func tr(l window.Labels, m text, args ...any) string {
	s := textsEN[m]
	if l.Language() == window.French && textsFR[m] != "" {
		s = textsFR[m]
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}
