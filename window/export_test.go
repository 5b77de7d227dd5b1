package window

import "time"

// What the external tests (package window_test, which use windowtest's harness and so
// cannot be in this package: windowtest imports window) read of the App's inside. Only
// test builds have these names.

// FrameInterval is the shortest time between two frames.
const FrameInterval = frameInterval

// SpinnerStep is how long each spinner frame shows.
const SpinnerStep = spinnerStep

// MessageLife is how long a status message shows.
const MessageLife = messageLife

// SpinnerFrames are the spinner's frames, in order.
var SpinnerFrames = spinnerFrames

// SpinnerFrame is the spinner's frame at t.
func SpinnerFrame(t time.Time) string { return spinnerFrame(t) }

// DarkTheme is the dark theme, whatever the terminal and NO_COLOR say.
func DarkTheme() *Theme { return darkTheme() }

// Ready returns a channel closed once Run has started the screen.
func Ready(a *App) <-chan struct{} { return a.ready }

// FramesDrawn is the number of frames the App has drawn: read it on the UI goroutine.
func FramesDrawn(a *App) uint64 { return a.frames }

// QueuedEvents is the number of tcell's events waiting for the loop: any goroutine may
// read it once Run has started.
func QueuedEvents(a *App) int { return len(a.events) }

// Dialogs returns the open dialogs, the top one last: call it on the UI goroutine.
func Dialogs(a *App) []*Dialog { return a.dialogs }

// MenuState says whether a menu is open and which: call it on the UI goroutine.
func MenuState(a *App) (open bool, index int) { return a.menu.open, a.menu.index }

// TimerAt is when the loop is next woken up, zero for never: call it on the UI goroutine.
func TimerAt(a *App) time.Time { return a.timerAt }

// WindowRect is where w is on the screen, its frame included: call it on the UI goroutine.
func WindowRect(w *Window) Rect { return w.rect }

// FileChooserView is the file chooser ChooseFile's dialog shows.
type FileChooserView = fileChooser

// ChooserIn returns the file chooser d, a dialog of ChooseFile, shows.
func ChooserIn(d *Dialog) *FileChooserView { return d.body.(contentBody).c.(*fileChooser) }

// SetOnRead makes the chooser call f each time the answer of the read it awaits is shown:
// call it on the UI goroutine.
func (c *fileChooser) SetOnRead(f func()) { c.onRead = f }

// Folder is the folder listed, "" until the first read ends: call it on the UI goroutine.
func (c *fileChooser) Folder() string { return c.folder }

// Filter is the chooser's filter input: use it on the UI goroutine.
func (c *fileChooser) Filter() *Input { return c.filter }

// Rows returns the rows of the chooser's list and the index of the highlighted one, -1
// for none: call it on the UI goroutine.
func (c *fileChooser) Rows() (rows []string, current int) {
	for _, it := range c.list.items {
		rows = append(rows, it.Text)
	}
	return rows, c.list.Current()
}

// HoldFrames makes the App's last frame look as if it had been drawn now + d - FrameInterval,
// so that a frame not drawn at once waits until then: call it on the UI goroutine.
func HoldFrames(a *App, d time.Duration) { a.lastFrame = time.Now().Add(d - frameInterval) }
