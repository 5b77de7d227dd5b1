package window

// Widget is what a window shows: a conversation, a list, a text. The window manager
// draws its frame and hands it the inside. Draw and HandleEvent run on the UI goroutine
// only.
type Widget interface {
	// Draw paints every cell of r; focused says whether the window has the keyboard (a
	// focused text input places the cursor with r.ShowCursor). A frame costs what is
	// visible: Draw reads only what fits in r.
	Draw(r Region, focused bool)
	// HandleEvent receives a Key, a Paste or a Mouse event (mouse coordinates relative
	// to the widget's region) and reports whether it used it.
	HandleEvent(ev Event) bool
}

// Hinter is a widget that says which keys work in it; the status bar shows them while it
// has the focus.
type Hinter interface {
	Hints() []Hint
}

// Busy is a widget that is sometimes working (an agent's turn): while Busy returns true,
// its window's frame shows a spinner.
type Busy interface {
	Busy() bool
}

// Hint is one entry of the status bar: a key and what it does. Label is used when set,
// Text otherwise. Key, when set, is what a click on the hint presses.
type Hint struct {
	Keys  string
	Label Label
	Text  string
	Key   *Key
}

// Event is what a widget receives: a Key, a Paste or a Mouse.
type Event interface{ event() }

// Paste is a bracketed paste, whole: its text, newlines included. A newline in a paste is
// text, never "send".
type Paste struct{ Text string }

func (Paste) event() {}

// MouseAction is what the mouse did.
type MouseAction int

// The mouse actions a widget receives.
const (
	MousePress MouseAction = iota
	MouseRelease
	MouseDrag
	MouseWheelUp
	MouseWheelDown
)

// Mouse is a mouse event at (X, Y), relative to the widget's region.
type Mouse struct {
	X, Y   int
	Action MouseAction
	Mod    Mod
}

func (Mouse) event() {}
