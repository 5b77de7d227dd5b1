package workbench

import "git.rickub.com/bots-garden/sidekicks/window"

// retitle changes a window's title when it differs (the language changed, a file was
// modified). Called while a frame is drawn, the frame already has the old title: the empty
// Post wakes the loop for one more.
func retitle(app *window.App, w *window.Window, title string) {
	if w == nil || w.Number() == 0 || w.Title() == title {
		return
	}
	w.SetTitle(title)
	app.Post(func() {})
}
