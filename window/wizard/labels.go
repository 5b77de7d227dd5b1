package wizard

import "git.rickub.com/bots-garden/sidekicks/i18n"

// text is a text of the wizard: each has an English and a French version in textsEN and
// textsFR (labels_en.go, labels_fr.go). A button's text marks its mnemonic letter with
// tildes ("~P~review"); one with verbs (%s) is given its arguments.
type text int

// The texts.
const (
	textNone text = iota

	tTitle
	tName
	tDisplayName
	tIcon
	tDescription
	tFolder
	tWhere
	tLocal
	tContainer
	tSbx
	tContainerName
	tSandboxName
	tProgram
	tArguments
	tConfigFile
	tOptional
	tLifecycleFolder
	tCreate
	tStop
	tRemove
	tPreview
	tAdd
	tBack
	tChecking
	tWriting
	tWillAdd
	tAdded
	tReadFailed
	tWriteFailed
	tDenied
	tGone
	tOtherError
	tHintNextField
	tHintChange
	tNoFolderTitle
	tCreateAndAdd
	tAddWithout
	tCreateFailed

	textCount
)

// catalogue holds the wizard's texts in every language.
var catalogue = i18n.NewCatalogue[text](textsEN[:], textsFR[:])
