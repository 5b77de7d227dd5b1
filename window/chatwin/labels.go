package chatwin

import "git.rickub.com/bots-garden/sidekicks/i18n"

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
	tCancelStuck
	tHintStopAgent
	tStateError
	tQueued
	tQueuedMore
	tListingFiles
	tMoreFiles
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

	// The permission request, in its window.
	tRequestAsks
	tRequestMore
	tRequestMoreOptions
	tRequestConfirm
	tRequestKeys
	tRequestRejectAll
	tRequestEsc
	tRequestLeaveInput
	tRejectedAll
	tRequestNotInFront
	tRequestSoon
	tRequestElsewhere
	tHintAnswer
	tKindAllowOnce
	tKindAllowAlways
	tKindRejectOnce
	tKindRejectAlways

	textCount
)

// catalogue holds the texts of the agent and channel windows in every language.
var catalogue = i18n.NewCatalogue[text](textsEN[:], textsFR[:])
