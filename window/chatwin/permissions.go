package chatwin

import (
	"context"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// PermissionOptions say how the permission requests of one conversation are shown.
type PermissionOptions struct {
	// Key is the conversation's: the window with this key shows its requests.
	Key chat.Key
	// Title returns the name the request gives the agent that asks (its title); nil, or "",
	// shows its name.
	Title func(agent string) string
	// Window returns the conversation's window, nil when none is open. While a request
	// waits it is marked (the "!" on its frame and in the window list), and the bell rings
	// when the first one comes and it is not in front. Called on the screen's goroutine.
	Window func() *window.Window
	// Requests is where the request waits for its answer, and where the conversation's
	// window finds it (Options.Requests); nil is the App's (RequestsOf).
	Requests *Requests
}

// Permissions returns what answers the permission requests of one conversation's agents:
// the request waits on the board, its window shows it, and only a key typed in that window
// answers it. Give it to the service (chat.ServiceOptions.Permissions returns one per
// conversation). Ask may be called from any goroutine; it waits for the user's answer, and
// when its context ends first (the turn was cancelled, the agent went away) the request
// goes away with it.
func Permissions(app *window.App, o PermissionOptions) chat.Permissions {
	if o.Requests == nil {
		o.Requests = RequestsOf(app)
	}
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

// Ask puts the request on the board and waits for the answer.
func (p *asker) Ask(ctx context.Context, agent string, req chat.PermissionRequest) (string, bool) {
	who := agent
	if p.o.Title != nil {
		if t := p.o.Title(agent); t != "" {
			who = t
		}
	}
	r := &Request{Key: p.o.Key, Agent: agent, Who: who, Req: req, win: p.o.Window, answers: make(chan answer, 1)}
	b := p.o.Requests
	p.app.Post(func() {
		if ctx.Err() != nil {
			r.done = true // never shown: the answer Ask posts on ctx.Done finds it done
			return
		}
		b.add(r)
	})
	select {
	case a := <-r.answers:
		return a.id, a.ok
	case <-ctx.Done():
		p.app.Post(func() { b.answer(r, "", false) })
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
