package window

import (
	"strings"
	"unicode"

	"github.com/gdamore/tcell/v2"
)

// Keys arrive differently from one terminal to the next; keyFromTcell turns every form a
// real terminal sends into one Key value, so that widgets compare keys and never look at
// tcell's events.

// KeyCode is a key that is not a character.
type KeyCode int

// The key codes. KeyRune means a character key, whose character is Key.Rune.
const (
	KeyRune KeyCode = iota
	KeyEnter
	KeyTab
	KeyBacktab
	KeyBackspace
	KeyDelete
	KeyInsert
	KeyEsc
	KeyUp
	KeyDown
	KeyLeft
	KeyRight
	KeyHome
	KeyEnd
	KeyPgUp
	KeyPgDn
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
)

// Mod is a set of modifier keys.
type Mod int

// The modifiers.
const (
	ModShift Mod = 1 << iota
	ModCtrl
	ModAlt
	ModNone Mod = 0
)

// Key is a key press, normalised: Ctrl-W is {KeyRune, 'w', ModCtrl} however it came,
// Alt-Enter is {KeyEnter, 0, ModAlt} whether it came as ESC CR or as Enter with Alt.
type Key struct {
	Code KeyCode
	Rune rune
	Mod  Mod
}

func (Key) event() {}

// Alt, Ctrl and Plain build keys for comparisons and shortcuts.
func Alt(r rune) Key { return Key{KeyRune, r, ModAlt} }

// Ctrl returns the key Ctrl with letter r.
func Ctrl(r rune) Key { return Key{KeyRune, r, ModCtrl} }

// Named returns a key that is not a character, with modifiers.
func Named(code KeyCode, mod Mod) Key { return Key{Code: code, Mod: mod} }

// Is reports whether k is the same key as o. For a character with Alt or Ctrl, case and
// Shift are ignored: with Caps Lock on, Alt-X arrives as Alt with 'X'.
func (k Key) Is(o Key) bool {
	if k.Code != o.Code {
		return false
	}
	if k.Code != KeyRune {
		return k.Mod == o.Mod
	}
	if k.Mod&(ModAlt|ModCtrl) != 0 {
		return k.Mod&^ModShift == o.Mod&^ModShift && unicode.ToLower(k.Rune) == unicode.ToLower(o.Rune)
	}
	return k.Mod == o.Mod && k.Rune == o.Rune
}

// IsRune reports whether k types the character r, with no modifier but Shift.
func (k Key) IsRune(r rune) bool { return k.Code == KeyRune && k.Mod&^ModShift == 0 && k.Rune == r }

// Printable reports whether k types a character into a text: a printable character, or a
// format character that joins a grapheme cluster (clusterFormat).
func (k Key) Printable() bool {
	return k.Code == KeyRune && k.Mod&(ModAlt|ModCtrl) == 0 && (unicode.IsPrint(k.Rune) || clusterFormat(k.Rune))
}

// clusterFormat reports whether r is a format character that belongs inside a grapheme
// cluster: the zero width joiner (👩‍💻 is 👩, ZWJ, 💻), the zero width non-joiner (Persian
// and Indic scripts), and the tag characters of subdivision flags. unicode.IsPrint leaves
// them out; a terminal sends them as keys of their own, and dropping them would split the
// cluster the user typed.
func clusterFormat(r rune) bool {
	return r == '\u200c' || r == '\u200d' || r >= 0xE0020 && r <= 0xE007F
}

// azertyDigits are the characters of the digit row of a French AZERTY keyboard without
// Shift, from 1 to 0.
const azertyDigits = "&é\"'(-è_çà"

// WindowDigit returns N for Alt-N (N from 0 to 9), and for Alt with the AZERTY character
// in the place of N, since AZERTY keyboards need Shift for the digits.
func (k Key) WindowDigit() (int, bool) {
	if k.Code != KeyRune || k.Mod&^ModShift != ModAlt {
		return 0, false
	}
	if k.Rune >= '0' && k.Rune <= '9' {
		return int(k.Rune - '0'), true
	}
	i := 0
	for _, r := range azertyDigits {
		i++
		if r == k.Rune {
			return i % 10, true
		}
	}
	return 0, false
}

var codeNames = map[KeyCode]string{
	KeyEnter: "Enter", KeyTab: "Tab", KeyBacktab: "Shift-Tab", KeyBackspace: "Backspace",
	KeyDelete: "Delete", KeyInsert: "Insert", KeyEsc: "Esc", KeyUp: "Up", KeyDown: "Down",
	KeyLeft: "Left", KeyRight: "Right", KeyHome: "Home", KeyEnd: "End", KeyPgUp: "PgUp",
	KeyPgDn: "PgDn", KeyF1: "F1", KeyF2: "F2", KeyF3: "F3", KeyF4: "F4", KeyF5: "F5",
	KeyF6: "F6", KeyF7: "F7", KeyF8: "F8", KeyF9: "F9", KeyF10: "F10", KeyF11: "F11",
	KeyF12: "F12",
}

// String names the key as the documentation writes it: "Alt-X", "Shift-F6", "Ctrl-W".
func (k Key) String() string {
	var b strings.Builder
	if k.Mod&ModCtrl != 0 {
		b.WriteString("Ctrl-")
	}
	if k.Mod&ModAlt != 0 {
		b.WriteString("Alt-")
	}
	if k.Mod&ModShift != 0 && k.Code != KeyRune {
		b.WriteString("Shift-")
	}
	if k.Code == KeyRune {
		r := k.Rune
		if k.Mod&(ModAlt|ModCtrl) != 0 {
			r = unicode.ToUpper(r)
		}
		if r == ' ' {
			b.WriteString("Space")
		} else {
			b.WriteRune(r)
		}
		return b.String()
	}
	b.WriteString(codeNames[k.Code])
	return b.String()
}

var tcellCodes = map[tcell.Key]KeyCode{
	tcell.KeyEnter: KeyEnter, tcell.KeyTab: KeyTab, tcell.KeyBacktab: KeyBacktab,
	tcell.KeyBackspace: KeyBackspace, tcell.KeyBackspace2: KeyBackspace,
	tcell.KeyDelete: KeyDelete, tcell.KeyInsert: KeyInsert, tcell.KeyEsc: KeyEsc,
	tcell.KeyUp: KeyUp, tcell.KeyDown: KeyDown, tcell.KeyLeft: KeyLeft, tcell.KeyRight: KeyRight,
	tcell.KeyHome: KeyHome, tcell.KeyEnd: KeyEnd, tcell.KeyPgUp: KeyPgUp, tcell.KeyPgDn: KeyPgDn,
}

// keyFromTcell normalises one of tcell's key events. ok is false for a key Sidekicks has
// no use for (F13 and beyond that no terminal sends for a modified F-key, media keys).
func keyFromTcell(ev *tcell.EventKey) (Key, bool) {
	tk, r := ev.Key(), ev.Rune()
	mod := modFromTcell(ev.Modifiers())
	switch {
	case tk == tcell.KeyRune:
		// ESC CR (Alt-Enter through tmux and older terminals) is read by tcell as Alt
		// with a control character, which it reports as Ctrl-Alt-m.
		if mod&(ModAlt|ModCtrl) == ModAlt|ModCtrl && (r == 'm' || r == 'M') {
			return Key{KeyEnter, 0, ModAlt}, true
		}
		if r < ' ' || r == 0x7f {
			return Key{}, false
		}
		if mod&(ModAlt|ModCtrl) == 0 {
			mod &^= ModShift // the character already says it
		}
		return Key{KeyRune, r, mod}, true
	case tk == tcell.KeyEnter || tk == tcell.KeyLF && mod&ModAlt != 0:
		return Key{KeyEnter, 0, mod &^ ModCtrl}, true
	case tk == tcell.KeyCtrlM && mod&ModAlt != 0:
		return Key{KeyEnter, 0, ModAlt}, true
	case tk == tcell.KeyTab && mod&ModShift != 0:
		return Key{KeyBacktab, 0, mod &^ ModShift}, true
	case tk == tcell.KeyBackspace || tk == tcell.KeyBackspace2:
		return Key{KeyBackspace, 0, mod &^ ModCtrl}, true
	case tk == tcell.KeyTab || tk == tcell.KeyEsc:
		return Key{tcellCodes[tk], 0, mod}, true
	case tk == tcell.KeyNUL || tk == tcell.KeyCtrlSpace:
		return Key{KeyRune, ' ', mod | ModCtrl}, true
	case tk > tcell.KeyNUL && tk < tcell.KeyESC:
		// A control character: Ctrl with a letter.
		return Key{KeyRune, rune('a' + tk - 1), mod | ModCtrl}, true
	case tk > tcell.KeyESC && tk < ' ':
		return Key{KeyRune, rune('\\' + tk - tcell.KeyFS), mod | ModCtrl}, true
	case tk >= tcell.KeyCtrlA && tk <= tcell.KeyCtrlZ:
		return Key{KeyRune, rune('a' + tk - tcell.KeyCtrlA), mod | ModCtrl}, true
	case tk >= tcell.KeyF1 && tk <= tcell.KeyF64:
		return fKey(int(tk-tcell.KeyF1)+1, mod)
	}
	if c, ok := tcellCodes[tk]; ok {
		return Key{c, 0, mod}, true
	}
	return Key{}, false
}

// fKey maps F1…F64. Terminals described by terminfo rather than by modifier parameters
// report a modified F-key as a higher one: F13–F24 are Shift-F1…F12, F25–F36 Ctrl,
// F37–F48 Ctrl-Shift, F49–F60 Alt, F61–F64 Alt-Shift.
func fKey(n int, mod Mod) (Key, bool) {
	extra := []Mod{ModNone, ModShift, ModCtrl, ModCtrl | ModShift, ModAlt, ModAlt | ModShift}
	group := (n - 1) / 12
	if group >= len(extra) {
		return Key{}, false
	}
	return Key{KeyF1 + KeyCode((n-1)%12), 0, mod | extra[group]}, true
}

func modFromTcell(m tcell.ModMask) Mod {
	var mod Mod
	if m&tcell.ModShift != 0 {
		mod |= ModShift
	}
	if m&tcell.ModCtrl != 0 {
		mod |= ModCtrl
	}
	if m&tcell.ModAlt != 0 {
		mod |= ModAlt
	}
	return mod
}
