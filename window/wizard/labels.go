package wizard

import (
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// text is a text of the wizard: each has an English and a French version in textsEN and
// textsFR (labels_en.go, labels_fr.go). A button's text marks its mnemonic letter with
// tildes ("~P~review"); one with verbs (%s) is used with tf.
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

	textCount
)

// texts is the wizard's catalogue in one language, with the toolkit's embedded (its Cancel
// button and the hints the toolkit names).
type texts struct{ window.Labels }

// t returns a text in the catalogue's language, its mnemonic marks kept; a text with no
// French version falls back to English.
func (x texts) t(m text) string {
	if x.Language() == window.French && textsFR[m] != "" {
		return textsFR[m]
	}
	return textsEN[m]
}

// plain returns a text without its mnemonic marks.
func (x texts) plain(m text) string {
	s, _ := window.SplitMnemonic(x.t(m))
	return s
}

// tf formats a text that holds verbs with args.
func (x texts) tf(m text, args ...any) string { return fmt.Sprintf(x.t(m), args...) }
