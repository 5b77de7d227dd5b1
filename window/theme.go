package window

import (
	"os"
	"time"

	"github.com/gdamore/tcell/v2"
)

// Class names what a piece of the screen is (a keyword, a frame, a menu's letter); the
// theme gives each class its colours. Nothing is drawn with a colour chosen elsewhere.
type Class int

// The classes. The syntax.* and diagnostic.* ones are the Turbo Python spec's
// "Coloration" table; the others are the screen's own furniture.
const (
	ClassText Class = iota
	ClassDesktop
	ClassFrame
	ClassFrameActive
	ClassTitle
	ClassTitleActive
	ClassWindowNumber
	ClassUnread
	ClassAttention
	ClassSpinner
	ClassMenuBar
	ClassMenuItem
	ClassMenuSelected
	ClassMenuMnemonic
	ClassMenuMnemonicSelected
	ClassMenuDisabled
	ClassStatusBar
	ClassStatusKey
	ClassStatusMessage
	ClassDialog
	ClassDialogFrame
	ClassDialogTitle
	ClassDialogButton
	ClassDialogButtonFocused
	ClassDialogInput
	ClassDialogError
	ClassDialogAllow
	ClassDialogReject
	ClassListSelected
	ClassKeyword
	ClassComment
	ClassType
	ClassString
	ClassNumber
	ClassFunction
	ClassOperator
	ClassError
	ClassWarning
	ClassSelection
	ClassBuiltin
	ClassAdded
	ClassRemoved
	ClassIcon0
	ClassIcon1
	ClassIcon2
	ClassIcon3
	ClassIcon4
	ClassIcon5
	ClassIcon6
	ClassIcon7
	// state.*: what something that runs is doing (a process, a task): ready, working, stopped.
	ClassReady
	ClassBusy
	ClassStopped
	ClassFileFolder
	ClassFileProtected
	ClassGutter
	// markup.*: Markdown in a conversation (see window/markdown).
	ClassHeading
	ClassStrong
	ClassEmphasis
	ClassStrike
	ClassCode
	ClassLink
	ClassMarker
	classCount
)

var classNames = [classCount]string{
	ClassText:                 "text",
	ClassDesktop:              "desktop",
	ClassFrame:                "window.frame",
	ClassFrameActive:          "window.frame.active",
	ClassTitle:                "window.title",
	ClassTitleActive:          "window.title.active",
	ClassWindowNumber:         "window.number",
	ClassUnread:               "window.unread",
	ClassAttention:            "window.attention",
	ClassSpinner:              "window.spinner",
	ClassMenuBar:              "menu.bar",
	ClassMenuItem:             "menu.item",
	ClassMenuSelected:         "menu.selected",
	ClassMenuMnemonic:         "menu.mnemonic",
	ClassMenuMnemonicSelected: "menu.mnemonic.selected",
	ClassMenuDisabled:         "menu.disabled",
	ClassStatusBar:            "status.bar",
	ClassStatusKey:            "status.key",
	ClassStatusMessage:        "status.message",
	ClassDialog:               "dialog",
	ClassDialogFrame:          "dialog.frame",
	ClassDialogTitle:          "dialog.title",
	ClassDialogButton:         "dialog.button",
	ClassDialogButtonFocused:  "dialog.button.focused",
	ClassDialogInput:          "dialog.input",
	ClassDialogError:          "dialog.error",
	ClassDialogAllow:          "dialog.allow",
	ClassDialogReject:         "dialog.reject",
	ClassListSelected:         "list.selected",
	ClassKeyword:              "syntax.keyword",
	ClassComment:              "syntax.comment",
	ClassType:                 "syntax.type",
	ClassString:               "syntax.string",
	ClassNumber:               "syntax.number",
	ClassFunction:             "syntax.function",
	ClassOperator:             "syntax.operator",
	ClassError:                "diagnostic.error",
	ClassWarning:              "diagnostic.warning",
	ClassSelection:            "editor.selection",
	ClassBuiltin:              "syntax.builtin",
	ClassAdded:                "diff.added",
	ClassRemoved:              "diff.removed",
	ClassIcon0:                "icon.0",
	ClassIcon1:                "icon.1",
	ClassIcon2:                "icon.2",
	ClassIcon3:                "icon.3",
	ClassIcon4:                "icon.4",
	ClassIcon5:                "icon.5",
	ClassIcon6:                "icon.6",
	ClassIcon7:                "icon.7",
	ClassReady:                "state.ready",
	ClassBusy:                 "state.busy",
	ClassStopped:              "state.stopped",
	ClassFileFolder:           "files.folder",
	ClassFileProtected:        "files.protected",
	ClassGutter:               "editor.gutter",
	ClassHeading:              "markup.heading",
	ClassStrong:               "markup.strong",
	ClassEmphasis:             "markup.emphasis",
	ClassStrike:               "markup.strike",
	ClassCode:                 "markup.code",
	ClassLink:                 "markup.link",
	ClassMarker:               "markup.marker",
}

// String returns the class's name, such as "syntax.keyword".
func (c Class) String() string {
	if c < 0 || c >= classCount {
		return "unknown"
	}
	return classNames[c]
}

// ClassNamed returns the class with the given name.
func ClassNamed(name string) (Class, bool) {
	for c, n := range classNames {
		if n == name {
			return Class(c), true
		}
	}
	return 0, false
}

// Theme gives every class a style.
type Theme struct {
	name   string
	styles [classCount]tcell.Style
}

// Name returns "dark", "light", or one of them with "-nocolor" when NO_COLOR is set.
func (t *Theme) Name() string { return t.name }

// Style returns the style of class c.
func (t *Theme) Style(c Class) tcell.Style {
	if c < 0 || c >= classCount {
		return t.styles[ClassText]
	}
	return t.styles[c]
}

// SelectTheme returns the theme for the configuration's ui.theme: "light", "dark", or
// "system", which follows the terminal's background (systemDark, from
// DetectBackground; dark when it could not be told). With noColor (the NO_COLOR
// convention) the theme uses no colour at all, only bold, underline, reverse and dim.
func SelectTheme(setting string, systemDark, noColor bool) *Theme {
	dark := true
	switch setting {
	case "light":
		dark = false
	case "dark":
		dark = true
	default:
		dark = systemDark
	}
	switch {
	case noColor && dark:
		return monoTheme("dark-nocolor")
	case noColor:
		return monoTheme("light-nocolor")
	case dark:
		return darkTheme()
	default:
		return lightTheme()
	}
}

// ThemeForTerminal is SelectTheme for the terminal Sidekicks runs in: NO_COLOR from the
// environment, and for "system" the terminal's background asked with DetectBackground
// (waiting at most timeout). Call it before the screen starts.
func ThemeForTerminal(setting string, timeout time.Duration) *Theme {
	dark := true
	if setting != "light" && setting != "dark" {
		if d, ok := DetectBackground(timeout); ok {
			dark = d
		}
	}
	return SelectTheme(setting, dark, os.Getenv("NO_COLOR") != "")
}

func st(fg, bg tcell.Color) tcell.Style {
	return tcell.StyleDefault.Foreground(fg).Background(bg)
}

// darkTheme is Turbo's own: white on blue windows, grey bars and dialogs.
func darkTheme() *Theme {
	navy, silver, black, white := tcell.ColorNavy, tcell.ColorSilver, tcell.ColorBlack, tcell.ColorWhite
	t := &Theme{name: "dark"}
	s := &t.styles
	s[ClassText] = st(silver, navy)
	s[ClassDesktop] = st(tcell.ColorGray, tcell.NewRGBColor(0x10, 0x10, 0x40))
	s[ClassFrame] = st(silver, navy)
	s[ClassFrameActive] = st(white, navy).Bold(true)
	s[ClassTitle] = st(silver, navy)
	s[ClassTitleActive] = st(white, navy).Bold(true)
	s[ClassWindowNumber] = st(silver, navy)
	s[ClassUnread] = st(tcell.ColorYellow, navy).Bold(true)
	s[ClassAttention] = st(tcell.ColorRed, navy).Bold(true)
	s[ClassSpinner] = st(tcell.ColorYellow, navy)
	s[ClassMenuBar] = st(black, silver)
	s[ClassMenuItem] = st(black, silver)
	s[ClassMenuSelected] = st(black, tcell.ColorGreen)
	s[ClassMenuMnemonic] = st(tcell.ColorMaroon, silver)
	s[ClassMenuMnemonicSelected] = st(tcell.ColorMaroon, tcell.ColorGreen)
	s[ClassMenuDisabled] = st(tcell.ColorGray, silver)
	s[ClassStatusBar] = st(black, silver)
	s[ClassStatusKey] = st(tcell.ColorMaroon, silver)
	s[ClassStatusMessage] = st(navy, silver).Bold(true)
	s[ClassDialog] = st(black, silver)
	s[ClassDialogFrame] = st(white, silver).Bold(true)
	s[ClassDialogTitle] = st(white, silver).Bold(true)
	s[ClassDialogButton] = st(black, tcell.ColorGreen)
	s[ClassDialogButtonFocused] = st(white, tcell.ColorGreen).Bold(true)
	s[ClassDialogInput] = st(white, navy)
	s[ClassDialogError] = st(tcell.ColorMaroon, silver).Bold(true)
	s[ClassDialogAllow] = st(tcell.ColorGreen, silver)
	s[ClassDialogReject] = st(tcell.ColorMaroon, silver)
	s[ClassListSelected] = st(white, tcell.ColorTeal)
	s[ClassKeyword] = st(tcell.ColorYellow, navy).Bold(true)
	s[ClassComment] = st(tcell.ColorAqua, navy).Italic(true)
	s[ClassType] = st(tcell.ColorLime, navy)
	s[ClassString] = st(tcell.ColorFuchsia, navy)
	s[ClassNumber] = st(tcell.ColorAqua, navy)
	s[ClassFunction] = st(white, navy)
	s[ClassOperator] = st(white, navy)
	s[ClassError] = st(tcell.ColorRed, navy).Bold(true)
	s[ClassWarning] = st(tcell.ColorYellow, navy)
	s[ClassSelection] = st(black, tcell.ColorTeal)
	s[ClassBuiltin] = st(tcell.ColorTeal, navy).Bold(true)
	s[ClassAdded] = st(tcell.ColorLime, navy)
	s[ClassRemoved] = st(tcell.ColorRed, navy)
	setIcons(s, white, black)
	s[ClassReady] = st(tcell.ColorLime, navy)
	s[ClassBusy] = st(tcell.ColorYellow, navy)
	s[ClassStopped] = st(tcell.ColorGray, navy)
	s[ClassFileFolder] = st(white, navy).Bold(true)
	s[ClassFileProtected] = st(tcell.ColorYellow, navy)
	s[ClassGutter] = st(tcell.ColorGray, navy)
	setMarkup(s, tcell.ColorYellow, tcell.ColorFuchsia, tcell.ColorAqua, tcell.ColorGray)
	return t
}

// setMarkup gives the markup classes their styles: on the text's own, a heading bold in
// its colour, inline code and links in theirs, bullets, quote bars and table borders in
// the marker colour.
func setMarkup(s *[classCount]tcell.Style, heading, code, link, marker tcell.Color) {
	text := s[ClassText]
	s[ClassHeading] = text.Foreground(heading).Bold(true)
	s[ClassStrong] = text.Bold(true)
	s[ClassEmphasis] = text.Italic(true)
	s[ClassStrike] = text.StrikeThrough(true)
	s[ClassCode] = text.Foreground(code)
	s[ClassLink] = text.Foreground(link).Underline(true)
	s[ClassMarker] = text.Foreground(marker)
}

// lightTheme is black on white windows with the same grey bars.
func lightTheme() *Theme {
	white, black, silver, navy := tcell.ColorWhite, tcell.ColorBlack, tcell.ColorSilver, tcell.ColorNavy
	t := &Theme{name: "light"}
	s := &t.styles
	s[ClassText] = st(black, white)
	s[ClassDesktop] = st(tcell.ColorGray, tcell.NewRGBColor(0xe0, 0xe0, 0xe0))
	s[ClassFrame] = st(tcell.ColorGray, white)
	s[ClassFrameActive] = st(navy, white).Bold(true)
	s[ClassTitle] = st(tcell.ColorGray, white)
	s[ClassTitleActive] = st(navy, white).Bold(true)
	s[ClassWindowNumber] = st(tcell.ColorGray, white)
	s[ClassUnread] = st(tcell.ColorOlive, white).Bold(true)
	s[ClassAttention] = st(tcell.ColorRed, white).Bold(true)
	s[ClassSpinner] = st(tcell.ColorTeal, white)
	s[ClassMenuBar] = st(black, silver)
	s[ClassMenuItem] = st(black, silver)
	s[ClassMenuSelected] = st(white, navy)
	s[ClassMenuMnemonic] = st(tcell.ColorMaroon, silver)
	s[ClassMenuMnemonicSelected] = st(tcell.ColorYellow, navy)
	s[ClassMenuDisabled] = st(tcell.ColorGray, silver)
	s[ClassStatusBar] = st(black, silver)
	s[ClassStatusKey] = st(tcell.ColorMaroon, silver)
	s[ClassStatusMessage] = st(navy, silver).Bold(true)
	s[ClassDialog] = st(black, silver)
	s[ClassDialogFrame] = st(black, silver)
	s[ClassDialogTitle] = st(black, silver).Bold(true)
	s[ClassDialogButton] = st(black, tcell.ColorTeal)
	s[ClassDialogButtonFocused] = st(white, navy).Bold(true)
	s[ClassDialogInput] = st(black, white)
	s[ClassDialogError] = st(tcell.ColorMaroon, silver).Bold(true)
	s[ClassDialogAllow] = st(tcell.ColorGreen, silver)
	s[ClassDialogReject] = st(tcell.ColorMaroon, silver)
	s[ClassListSelected] = st(white, navy)
	s[ClassKeyword] = st(navy, white).Bold(true)
	s[ClassComment] = st(tcell.ColorGray, white).Italic(true)
	s[ClassType] = st(tcell.ColorPurple, white)
	s[ClassString] = st(tcell.ColorGreen, white)
	s[ClassNumber] = st(tcell.ColorTeal, white)
	s[ClassFunction] = st(black, white)
	s[ClassOperator] = st(black, white)
	s[ClassError] = st(tcell.ColorRed, white).Bold(true)
	s[ClassWarning] = st(tcell.ColorOlive, white)
	s[ClassSelection] = st(black, tcell.NewRGBColor(0xb0, 0xd0, 0xff))
	s[ClassBuiltin] = st(tcell.ColorTeal, white).Bold(true)
	s[ClassAdded] = st(tcell.ColorGreen, white)
	s[ClassRemoved] = st(tcell.ColorMaroon, white)
	setIcons(s, white, black)
	s[ClassReady] = st(tcell.ColorGreen, white)
	s[ClassBusy] = st(tcell.ColorOlive, white)
	s[ClassStopped] = st(tcell.ColorGray, white)
	s[ClassFileFolder] = st(navy, white).Bold(true)
	s[ClassFileProtected] = st(tcell.ColorMaroon, white)
	s[ClassGutter] = st(tcell.ColorGray, white)
	setMarkup(s, navy, tcell.ColorPurple, tcell.ColorBlue, tcell.ColorGray)
	return t
}

// iconColours are the backgrounds of the rounds of letter icons (icon.0 to icon.7): eight
// colours that tell agents apart on a dark and on a light background alike.
var iconColours = [8]tcell.Color{
	tcell.ColorMaroon, tcell.ColorGreen, tcell.ColorOlive, tcell.ColorPurple,
	tcell.ColorTeal, tcell.ColorRed, tcell.ColorBlue, tcell.ColorFuchsia,
}

// setIcons gives each icon class its background and a letter colour that reads on it.
func setIcons(s *[classCount]tcell.Style, light, dark tcell.Color) {
	for i, bg := range iconColours {
		fg := light
		if bg == tcell.ColorOlive || bg == tcell.ColorTeal || bg == tcell.ColorFuchsia {
			fg = dark
		}
		s[ClassIcon0+Class(i)] = st(fg, bg).Bold(true)
	}
}

// monoTheme draws with the terminal's own colours and attributes only.
func monoTheme(name string) *Theme {
	t := &Theme{name: name}
	s := &t.styles
	plain := tcell.StyleDefault
	rev := plain.Reverse(true)
	for c := range s {
		s[c] = plain
	}
	s[ClassDesktop] = plain.Dim(true)
	s[ClassFrame] = plain.Dim(true)
	s[ClassFrameActive] = plain.Bold(true)
	s[ClassTitleActive] = plain.Bold(true)
	s[ClassUnread] = plain.Bold(true)
	s[ClassAttention] = plain.Bold(true).Blink(true)
	s[ClassMenuBar] = rev
	s[ClassMenuItem] = rev
	s[ClassMenuSelected] = plain
	s[ClassMenuMnemonic] = rev.Underline(true)
	s[ClassMenuMnemonicSelected] = plain.Underline(true)
	s[ClassMenuDisabled] = rev.Dim(true)
	s[ClassStatusBar] = rev
	s[ClassStatusKey] = rev.Bold(true)
	s[ClassStatusMessage] = rev.Bold(true)
	s[ClassDialogFrame] = plain.Bold(true)
	s[ClassDialogTitle] = plain.Bold(true)
	s[ClassDialogButton] = plain
	s[ClassDialogButtonFocused] = rev
	s[ClassDialogInput] = plain.Underline(true)
	s[ClassDialogError] = plain.Bold(true)
	s[ClassDialogReject] = plain.Bold(true)
	s[ClassListSelected] = rev
	s[ClassKeyword] = plain.Bold(true)
	s[ClassComment] = plain.Dim(true)
	s[ClassType] = plain.Underline(true)
	s[ClassError] = plain.Bold(true)
	s[ClassWarning] = plain.Bold(true)
	s[ClassSelection] = rev
	s[ClassBuiltin] = plain.Bold(true)
	s[ClassAdded] = plain.Bold(true)
	s[ClassRemoved] = plain.Dim(true)
	for c := ClassIcon0; c <= ClassIcon7; c++ {
		s[c] = rev.Bold(true)
	}
	s[ClassReady] = plain.Bold(true)
	s[ClassStopped] = plain.Dim(true)
	s[ClassFileFolder] = plain.Bold(true)
	s[ClassFileProtected] = plain.Underline(true)
	s[ClassGutter] = plain.Dim(true)
	s[ClassHeading] = plain.Bold(true).Underline(true)
	s[ClassStrong] = plain.Bold(true)
	s[ClassEmphasis] = plain.Italic(true)
	s[ClassStrike] = plain.StrikeThrough(true)
	s[ClassCode] = plain.Reverse(true)
	s[ClassLink] = plain.Underline(true)
	s[ClassMarker] = plain.Dim(true)
	return t
}
