package workbench

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// text is a text this package shows: each has an English and a French version in textsEN
// and textsFR (labels_en.go, labels_fr.go). A text with verbs (%s, %d) is given its
// arguments.
type text int

// The texts.
const (
	textNone text = iota

	// The panel.
	tPanelTitle
	tRunning
	tNoAgents
	tColAgent
	tColName
	tColRuntime
	tColIdle
	tColState
	tStateStopped
	tStateStarting
	tStateReady
	tStateBusy
	tStateWaiting
	tStateStopping
	tStateError
	tStateWhy
	tRuntimeLocal
	tRuntimeContainer
	tRuntimeSandbox
	tExitCode
	tExitSignal
	tStartFailed
	tActionsTitle
	tActConversation
	tActStart
	tActStop
	tActRestart
	tActFiles
	tActLog
	tActTerminal
	tActStopContainer
	tActStopSandbox
	tActRemoveContainer
	tActRemoveSandbox
	tAskStopContainer
	tAskStopSandbox
	tAskRemoveContainer
	tAskRemoveSandbox
	tActionDone
	tActionFailed
	tNotNow
	tHintActions
	tHintStart
	tHintStop
	tHintRestart
	tHintConversation
	tHintFiles
	tHintLog
	tHintTerminal

	// The Files window.
	tFilesTitle
	tEmptyFolder
	tLoading
	tBinary
	tTruncated
	tTooLarge
	tOver
	tNewFileTitle
	tNewFolderTitle
	tNewIn
	tRenameTitle
	tRenameAsk
	tDeleteTitle
	tDeleteFileAsk
	tDeleteFolderAsk
	tNameNeeded
	tNameSlash
	tNameDots
	tNameExists
	tProtected
	tProtectedFolder
	tProtectedFolderFile
	tOutside
	tGone
	tPermission
	tFailed
	tNotRegular
	tTooLargeFile
	tWorkspaceItself
	tCreated
	tRenamed
	tDeleted
	tSaved
	tUnchanged
	tNotEditable
	tEditorFailed
	tHintNewFile
	tHintNewFolder
	tHintRename
	tHintDelete
	tHintEdit
	tHintExternal
	tHintRefresh
	tHintSwitch

	// The built-in editor.
	tEditorPosition
	tModified
	tLeaveTitle
	tLeaveSave
	tLeaveDiscard
	tLeaveKeep
	tHintSave
	tHintClose

	// The Log window.
	tLogTitle
	tLogEmpty
	tLogFile
	tLogMemory
	tHintFollow
	tHintScroll

	// The terminal.
	tTerminalBanner
	tTerminalFailed

	// The list of keys (Help ▸ Keys).
	tKeysPanel
	tKeysFiles
	tKeysEditor
	tKeysLog
	tKeyPanelMove
	tKeyPanelActions
	tKeyPanelTalk
	tKeyPanelStartStop
	tKeyPanelWindows
	tKeyPanelEngine
	tKeyFilesMove
	tKeyFilesTab
	tKeyFilesNew
	tKeyFilesRename
	tKeyFilesDelete
	tKeyFilesEdit
	tKeyFilesRefresh
	tKeyEditorEnds
	tKeyEditorSave
	tKeyEditorClose
	tKeyLogHome
	tKeyLogEnd
	tKeyLogLine
	tKeyLogPage

	textCount
)

// catalogue holds the package's texts in every language.
var catalogue = i18n.NewCatalogue[text](textsEN[:], textsFR[:])

// langOf is the App's language now (it changes on a reload).
func langOf(app *window.App) i18n.Lang { return app.Language() }
