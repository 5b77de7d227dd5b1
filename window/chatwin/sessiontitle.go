package chatwin

import "strings"

// followSessionTitle puts the title the agent gave its session (session_info_update) on
// the window's frame, after the window's own title: "gem — Fix the parser". The
// application may set the window's title meanwhile (a reload): the session's title then
// follows the new one.
func (w *Widget) followSessionTitle() {
	if w.win == nil || w.conv == nil || w.channel != nil {
		return
	}
	cur := w.win.Title()
	base := cur
	if w.titleSuffix != "" && strings.HasSuffix(cur, w.titleSuffix) {
		base = strings.TrimSuffix(cur, w.titleSuffix)
	}
	w.titleSuffix = ""
	if t := w.conv.SessionTitle(w.agent.Name); t != "" {
		w.titleSuffix = " — " + t
	}
	if want := base + w.titleSuffix; want != cur {
		w.win.SetTitle(want)
		// Changed while this frame is drawn, after its frames: one more frame shows it.
		w.app.Post(func() {})
	}
}

// SetTitle sets the window's own title, which the session's title follows.
func (w *Widget) SetTitle(title string) {
	if w.win != nil {
		w.win.SetTitle(title + w.titleSuffix)
	}
}
