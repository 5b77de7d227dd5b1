package chatwin

import (
	"context"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// PermissionOptions say how the permission requests of one conversation are shown.
type PermissionOptions struct {
	// Title returns the name the dialog gives the agent that asks (its title); nil, or "",
	// shows its name.
	Title func(agent string) string
	// Window returns the conversation's window, nil when none is open. When it is not in
	// front, it is marked as waiting for the user and the bell rings while the question is
	// asked. Both functions are called on the screen's goroutine.
	Window func() *window.Window
}

// Permissions returns what answers the permission requests of one conversation's agents:
// the screen's modal dialog, with the agent's own options. Give it to the service
// (chat.ServiceOptions.Permissions returns one per conversation). Ask may be called from
// any goroutine; it waits for the user's answer, and when its context ends first (the turn
// was cancelled, the agent went away) the dialog goes away with it.
func Permissions(app *window.App, o PermissionOptions) chat.Permissions {
	return &asker{app: app, o: o}
}

type asker struct {
	app *window.App
	o   PermissionOptions
}

type answer struct {
	id string
	ok bool
}

// Ask shows the request and waits for the answer.
func (p *asker) Ask(ctx context.Context, agent string, req chat.PermissionRequest) (string, bool) {
	answers := make(chan answer, 1)
	var d *window.Dialog   // on the screen's goroutine only
	var win *window.Window // the window marked, on the screen's goroutine only
	p.app.Post(func() {
		if ctx.Err() != nil {
			answers <- answer{}
			return
		}
		title := agent
		if p.o.Title != nil {
			if t := p.o.Title(agent); t != "" {
				title = t
			}
		}
		lang := p.app.Language()
		wr := window.OptionsRequest{Title: catalogue.Text(lang, tPermissionTitle), Heading: catalogue.Text(lang, tPermissionAsks, title), Detail: req.Title}
		for _, o := range req.Options {
			kind, class := kindText(lang, o.Kind)
			wr.Options = append(wr.Options, window.Option{ID: o.ID, Text: o.Name, Mark: kind, MarkClass: class})
		}
		if p.o.Window != nil {
			if w := p.o.Window(); w != nil && !w.Focused() {
				win = w
				w.SetAttention(true)
				p.app.Bell()
			}
		}
		d = p.app.AskOption(wr, func(id string, ok bool) {
			if win != nil {
				win.SetAttention(false)
			}
			answers <- answer{id, ok}
		})
	})
	select {
	case a := <-answers:
		return a.id, a.ok
	case <-ctx.Done():
		p.app.Post(func() {
			if d != nil {
				d.Dismiss()
			}
		})
		return "", false
	}
}

// kindText names an option's kind (the protocol's "allow_once", "allow_always",
// "reject_once" or "reject_always"), in the allow or the reject colour; "" for any other.
func kindText(lang i18n.Lang, kind string) (string, window.Class) {
	switch kind {
	case "allow_once":
		return catalogue.Text(lang, tKindAllowOnce), window.ClassDialogAllow
	case "allow_always":
		return catalogue.Text(lang, tKindAllowAlways), window.ClassDialogAllow
	case "reject_once":
		return catalogue.Text(lang, tKindRejectOnce), window.ClassDialogReject
	case "reject_always":
		return catalogue.Text(lang, tKindRejectAlways), window.ClassDialogReject
	}
	return "", window.ClassDialog
}
