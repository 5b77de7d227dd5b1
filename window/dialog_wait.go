package window

// Shutdown shows a modal box that says message (what quitting waits for) beside a
// spinner, runs stop on another goroutine (it may take long), then makes Run return. stop
// may call report, from any goroutine, to say what it waits for now; the box shows it
// under the message. Keys do nothing meanwhile. Call it on the UI goroutine.
func (a *App) Shutdown(message string, stop func(report func(detail string))) {
	b := &waitBody{message: message, app: a}
	d := a.open(a.T(LabelQuitTitle), b, nil)
	d.fixed = true
	report := func(detail string) { a.Post(func() { b.detail = detail }) }
	a.Go(func() {
		stop(report)
		a.Quit()
	})
}

// waiting reports whether a wait box is open (its spinner turns).
func (a *App) waiting() bool {
	for _, d := range a.dialogs {
		if _, ok := d.body.(*waitBody); ok {
			return true
		}
	}
	return false
}

type waitBody struct {
	app     *App
	message string
	detail  string
}

func (b *waitBody) size(l Labels, maxW int) (int, int) {
	return min(max(TextWidth(b.message)+2, 40), maxW), 3
}

func (b *waitBody) draw(r Region, l Labels) {
	W, _ := r.Size()
	bg := r.style(ClassDialog)
	n := r.text(0, 0, spinnerFrame(b.app.now()), bg)
	n += r.text(n, 0, " "+b.message, bg)
	r.spaces(n, 0, W-n, bg)
	r.spaces(0, 1, W, bg)
	n = r.text(0, 2, truncate(b.detail, W), r.style(ClassDialog))
	r.spaces(n, 2, W-n, bg)
}

func (b *waitBody) handleEvent(*Dialog, Event) bool { return true }

func (b *waitBody) hints() []Hint { return nil }
