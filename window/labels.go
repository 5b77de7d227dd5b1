package window

import (
	"fmt"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Label is a text of the toolkit's that the user sees: a menu, an item, a button, a hint, a
// message. Each has an English and a French text in labelsEN and labelsFR; the
// application's own texts are in its catalogue, not here. A text may mark its mnemonic
// letter with tildes ("~Q~uit"); one with verbs (%s, %d) is used with Tf.
type Label int

// The labels.
const (
	labelNone Label = iota

	LabelMenuWindow
	LabelMenuHelp

	LabelItemTile
	LabelItemMaximise
	LabelItemRestore
	LabelItemNext
	LabelItemPrevious
	LabelItemClose
	LabelItemList
	LabelItemKeys

	LabelYes
	LabelNo
	LabelOK
	LabelCancel
	LabelConfirm
	LabelFilter
	LabelNoMatch
	LabelWindowListTitle
	LabelUnread
	LabelAttention
	LabelBusy

	LabelHintMenu
	LabelHintNext
	LabelHintQuit
	LabelHintHelp
	LabelHintZoom
	LabelHintClose
	LabelHintScroll
	LabelHintChoose
	LabelHintCancel
	LabelHintMove
	LabelHintRun
	LabelHintSwitch
	LabelHintFilter
	LabelHintEdit
	LabelHintAnswer

	LabelTooSmall
	LabelNoWindow
	LabelQuitTitle
	LabelTooManyWindows

	// The list of keys (Help ▸ Keys).
	LabelKeysTitle
	LabelKeysGlobal
	LabelKeysMenus
	LabelKeysDialogs
	LabelKeysInput
	LabelKeysView
	LabelKeyColumn
	LabelEffectColumn
	LabelKeyF10
	LabelKeyAltLetter
	LabelKeyF6
	LabelKeyShiftF6
	LabelKeyAltDigit
	LabelKeyAltZero
	LabelKeyF5
	LabelKeyAltF3
	LabelKeyCtrlW
	LabelKeyAltX
	LabelKeyF1
	LabelKeyMouse
	LabelKeyWheel
	LabelKeyMenuArrows
	LabelKeyMenuEnter
	LabelKeyMenuEsc
	LabelKeyMenuLetter
	LabelKeyDialogTab
	LabelKeyDialogEnter
	LabelKeyDialogEsc
	LabelKeyDialogLetter
	LabelKeyOptionDigit
	LabelKeyChoiceType
	LabelKeyInputMove
	LabelKeyInputHomeEnd
	LabelKeyInputDelete
	LabelKeyInputKill
	LabelKeyInputPaste
	LabelKeyViewArrows
	LabelKeyViewPages
	LabelKeyViewHomeEnd

	// The file chooser (window/filechooser.go).
	LabelChooserFolder
	LabelChooserName
	LabelChooserReading
	LabelChooserEmpty
	LabelChooserGoTo
	LabelChooserAllFiles
	LabelChooserShowing
	LabelChooserDenied
	LabelChooserMissing
	LabelChooserNotFolder
	LabelChooserUnreadable
	LabelHintOpen
	LabelHintParent
	LabelChooserSaveFoot
	LabelChooserReplace
	LabelHintSave
	LabelPasteCut

	labelCount
)

// catalogue holds the toolkit's labels in every language.
var catalogue = i18n.NewCatalogue[Label](labelsEN[:], labelsFR[:])

// Labels translates labels into one language.
type Labels struct{ lang i18n.Lang }

// NewLabels returns the catalogue in lang.
func NewLabels(lang i18n.Lang) Labels { return Labels{lang} }

// Language returns the catalogue's language.
func (l Labels) Language() i18n.Lang { return l.lang }

// T returns the text of a label, mnemonic marks removed. A label with no French text
// falls back to English.
func (l Labels) T(label Label) string {
	text, _, _ := splitMnemonic(catalogue.Text(l.lang, label))
	return text
}

// Tf formats a label that holds verbs with args, once its mnemonic marks are removed (an
// argument may hold a tilde).
func (l Labels) Tf(label Label, args ...any) string {
	return fmt.Sprintf(l.T(label), args...)
}
