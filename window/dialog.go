package window

// Dialog is a modal window over the screen: while one is open, it takes every key, and
// clicks outside it do nothing. Its result reaches the caller through a callback, on the
// UI goroutine.
type Dialog struct {
	app    *App
	title  string
	body   dialogBody
	rect   Rect // where it was drawn
	closed bool
	fixed  bool // Esc does not close it (the quit box)
	// cancel delivers the "cancelled" result; it runs once, on Esc or Dismiss.
	cancel func()
}

// dialogBody is what a dialog holds: a question and its buttons, a field, a list.
type dialogBody interface {
	// size returns the inside's size wanted for at most maxW columns.
	size(l Labels, maxW int) (w, h int)
	draw(r Region, l Labels)
	// handleEvent handles a key, a paste, or a mouse event relative to the inside.
	handleEvent(d *Dialog, ev Event) bool
	hints() []Hint
}

// open pushes a dialog on top of the others and closes any open menu.
func (a *App) open(title string, body dialogBody, cancel func()) *Dialog {
	d := &Dialog{app: a, title: title, body: body, cancel: cancel}
	a.dialogs = append(a.dialogs, d)
	a.closeMenu()
	a.markDirty()
	return d
}

// topDialog returns the dialog that has the keyboard.
func (a *App) topDialog() *Dialog {
	if len(a.dialogs) == 0 {
		return nil
	}
	return a.dialogs[len(a.dialogs)-1]
}

// Dialogs returns how many dialogs are open; the one in front has the keys.
func (a *App) Dialogs() int { return len(a.dialogs) }

// close removes the dialog without a result; the caller delivers one.
func (d *Dialog) close() {
	if d.closed {
		return
	}
	d.closed = true
	a := d.app
	for i, o := range a.dialogs {
		if o == d {
			a.dialogs = append(a.dialogs[:i], a.dialogs[i+1:]...)
			break
		}
	}
	a.markDirty()
}

// Dismiss closes the dialog as if the user had pressed Esc: the callback gets the
// "cancelled" result (a permission request whose turn was cancelled). It does nothing to
// a dialog already closed.
func (d *Dialog) Dismiss() {
	if d.closed {
		return
	}
	d.close()
	if d.cancel != nil {
		d.cancel()
	}
}

// Open reports whether the dialog is still on screen.
func (d *Dialog) Open() bool { return !d.closed }

func (d *Dialog) handleEvent(ev Event) {
	if k, ok := ev.(Key); ok && k.Is(Named(KeyEsc, 0)) && !d.fixed {
		d.Dismiss()
		return
	}
	d.body.handleEvent(d, ev)
}

func (d *Dialog) handleMouse(x, y int, action MouseAction) {
	inner := d.inner()
	d.body.handleEvent(d, Mouse{X: x - inner.X, Y: y - inner.Y, Action: action})
}

func (d *Dialog) hints() []Hint {
	if d.fixed {
		return d.body.hints()
	}
	return append(d.body.hints(), Hint{Keys: "Esc", Label: LabelHintCancel})
}

// inner is the dialog's inside: within the frame, a column of margin on each side.
func (d *Dialog) inner() Rect {
	return Rect{d.rect.X + 2, d.rect.Y + 1, d.rect.W - 4, d.rect.H - 2}
}

// draw centres the dialog on the desktop, draws its frame, title and inside.
func (d *Dialog) draw(a *App, screen Region) {
	desk := a.desktop
	widest := 72
	if b, ok := d.body.(interface{ wide() bool }); ok && b.wide() {
		widest = desk.W - 4 // entries to read whole, as paths
	}
	maxW := max(min(desk.W-4, widest), 10)
	w, h := d.body.size(a.labels, maxW-4)
	w = max(min(w+4, maxW), min(TextWidth(d.title)+8, maxW))
	h = min(h+2, desk.H)
	d.rect = Rect{desk.X + (desk.W-w)/2, desk.Y + (desk.H-h)/2, w, h}
	r := screen.Sub(d.rect.X, d.rect.Y, d.rect.W, d.rect.H)
	fs := r.style(ClassDialogFrame)
	bg := r.style(ClassDialog)
	drawBox(r, doubleBox, fs)
	if d.title != "" {
		t := " " + truncate(d.title, w-6) + " "
		r.text((w-TextWidth(t))/2, 0, t, r.style(ClassDialogTitle))
	}
	for y := 1; y < h-1; y++ {
		r.spaces(1, y, 1, bg)
		r.spaces(w-2, y, 1, bg)
	}
	in := d.inner()
	d.body.draw(screen.Sub(in.X, in.Y, in.W, in.H), a.labels)
}

// buttons is a row of buttons, one of them focused.
type buttons struct {
	labels  []Label
	focus   int
	focused bool // whether the row (not a field) has the keyboard
	spots   []Rect
}

// width returns the row's width.
func (b *buttons) width(l Labels) int {
	w := 0
	for i, lb := range b.labels {
		if i > 0 {
			w += 2
		}
		w += TextWidth(l.T(lb)) + 4
	}
	return w
}

// draw centres the row on line y of r.
func (b *buttons) draw(r Region, y int, l Labels) {
	W, _ := r.Size()
	bg := r.style(ClassDialog)
	x := max((W-b.width(l))/2, 0)
	r.spaces(0, y, x, bg)
	b.spots = b.spots[:0]
	for i, lb := range b.labels {
		if i > 0 {
			x += r.text(x, y, "  ", bg)
		}
		c := ClassDialogButton
		if b.focused && i == b.focus {
			c = ClassDialogButtonFocused
		}
		text, at, _ := splitMnemonic(catalogue.Text(l.lang, lb))
		start := x
		x += r.text(x, y, "[ ", r.style(c))
		x += drawMnemonic(r, x, y, text, at, r.style(c), r.style(c).Underline(true))
		x += r.text(x, y, " ]", r.style(c))
		b.spots = append(b.spots, Rect{start, y, x - start, 1})
	}
	r.spaces(x, y, W-x, bg)
}

// key moves the focus between buttons and presses them by Enter or by their letter; it
// returns the pressed button, -1 for none. ← and → stop at the first and last buttons;
// Tab and Shift-Tab go round.
func (b *buttons) key(k Key, l Labels) (pressed int, used bool) {
	switch {
	case k.Is(Named(KeyLeft, 0)):
		b.focus = max(b.focus-1, 0) // the arrows stop at the ends: → then Enter never wraps onto Yes
	case k.Is(Named(KeyRight, 0)):
		b.focus = min(b.focus+1, len(b.labels)-1)
	case k.Is(Named(KeyBacktab, 0)):
		b.focus = (b.focus + len(b.labels) - 1) % len(b.labels)
	case k.Is(Named(KeyTab, 0)):
		b.focus = (b.focus + 1) % len(b.labels)
	case k.Is(Named(KeyEnter, 0)):
		return b.focus, true
	case k.Code == KeyRune && k.Mod&ModCtrl == 0:
		for i, lb := range b.labels {
			if _, _, letter := splitMnemonic(catalogue.Text(l.lang, lb)); letter != 0 && sameLetter(letter, k.Rune) {
				return i, true
			}
		}
		return -1, false
	default:
		return -1, false
	}
	return -1, true
}

// at returns the button at (x, y) of the inside.
func (b *buttons) at(x, y int) int {
	for i, s := range b.spots {
		if s.Contains(x, y) {
			return i
		}
	}
	return -1
}

// DialogContent is the inside of a dialog built outside this package (a form, the "Add
// an agent" wizard). Its methods run on the UI goroutine.
type DialogContent interface {
	// Size returns the inside's size wanted for at most maxW columns and maxH rows (the
	// dialog is cut to the desktop when it asks for more).
	Size(l Labels, maxW, maxH int) (w, h int)
	// Draw paints every cell of r, the dialog's inside.
	Draw(r Region, l Labels)
	// HandleEvent gets every key but Esc (which cancels the dialog), pastes, and mouse
	// events relative to the inside; it closes d with Close when it has its result.
	HandleEvent(d *Dialog, ev Event) bool
	// Hints are the keys shown in the status bar; Esc is added after them.
	Hints() []Hint
}

// OpenDialog opens a modal dialog around c, on top of any other. onCancel runs once, on
// Esc or Dismiss; c delivers its other results itself.
func (a *App) OpenDialog(title string, c DialogContent, onCancel func()) *Dialog {
	return a.open(title, contentBody{app: a, c: c}, onCancel)
}

// Close closes the dialog without the cancelled result: for a DialogContent that
// delivers its own. It does nothing to a dialog already closed.
func (d *Dialog) Close() { d.close() }

// SetTitle changes the title on the dialog's frame (a wizard's step).
func (d *Dialog) SetTitle(title string) {
	d.title = title
	d.app.markDirty()
}

// contentBody adapts a DialogContent to the dialogs' own interface.
type contentBody struct {
	app *App
	c   DialogContent
}

func (b contentBody) size(l Labels, maxW int) (int, int) {
	return b.c.Size(l, maxW, max(b.app.desktop.H-2, 1))
}

func (b contentBody) draw(r Region, l Labels)              { b.c.Draw(r, l) }
func (b contentBody) handleEvent(d *Dialog, ev Event) bool { return b.c.HandleEvent(d, ev) }
func (b contentBody) hints() []Hint                        { return b.c.Hints() }
