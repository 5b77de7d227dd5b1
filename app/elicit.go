package app

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// This file answers the agents' elicitations (elicitation/create) with the form dialog:
// a form built from the schema the agent sent, or a link to open (url mode) followed by a
// wait until the agent says the step is complete (elicitation/complete). An elicitation
// the agent cancels ($/cancel_request), or whose agent goes away, closes its dialog.

// elicitor is the application's acp.Elicitor.
type elicitor struct {
	ap *application
	// waits are the open waits of url elicitations, by agent and elicitation id (screen's
	// goroutine).
	mu    sync.Mutex
	waits map[string]*window.Dialog
	// open counts each agent's elicitations on screen: beyond maxElicitations, a flood,
	// they are cancelled at once.
	open map[string]int
}

// maxElicitations is how many dialogs of one agent's elicitations may be open at once.
const maxElicitations = 3

func (ap *application) elicitor() acp.Elicitor {
	return &elicitor{ap: ap, waits: map[string]*window.Dialog{}, open: map[string]int{}}
}

// Elicit shows the dialog and waits for the user, or for ctx.
func (el *elicitor) Elicit(ctx context.Context, e acp.Elicitation) acp.ElicitationResult {
	el.mu.Lock()
	flood := el.open[e.Agent] >= maxElicitations
	if !flood {
		el.open[e.Agent]++
	}
	el.mu.Unlock()
	if flood {
		el.ap.log.Printf("cancelled an elicitation of %s: %d of its questions are on screen already", e.Agent, maxElicitations)
		return acp.ElicitationResult{Action: acp.ElicitCancel}
	}
	defer func() {
		el.mu.Lock()
		el.open[e.Agent]--
		el.mu.Unlock()
	}()
	lang := el.ap.lang
	res := make(chan acp.ElicitationResult, 1)
	var dlg *window.Dialog // screen's goroutine
	el.ap.app.Post(func() {
		if ctx.Err() != nil {
			return
		}
		dlg = el.ap.app.AskForm(elicitForm(e, lang), func(r window.FormResult, ok bool) {
			res <- elicitResult(e, r, ok, lang)
		})
	})
	select {
	case r := <-res:
		if r.Action == acp.ElicitAccept && e.Mode == acp.ElicitURL {
			el.wait(e)
		}
		return r
	case <-ctx.Done():
		el.ap.app.Post(func() {
			if dlg != nil {
				dlg.Dismiss()
			}
		})
		return acp.ElicitationResult{Action: acp.ElicitCancel}
	}
}

// wait shows that the agent waits for the step done at the link, until it says so.
func (el *elicitor) wait(e acp.Elicitation) {
	key := e.Agent + "\x00" + e.ElicitationID
	lang := el.ap.lang
	el.ap.app.Post(func() {
		d := el.ap.app.AskForm(window.Form{
			Title:   elicitText.Text(lang, elWaitTitle, safetext.Line(e.Agent)),
			Message: elicitText.Text(lang, elWaiting, safetext.Line(e.Agent)),
			Link:    e.URL,
			Buttons: []string{elicitText.Text(lang, elClose)},
		}, func(window.FormResult, bool) {
			el.mu.Lock()
			delete(el.waits, key)
			el.mu.Unlock()
		})
		el.mu.Lock()
		el.waits[key] = d
		el.mu.Unlock()
	})
}

// Complete closes the wait of a url elicitation.
func (el *elicitor) Complete(agent, id string) {
	key := agent + "\x00" + id
	el.ap.app.Post(func() {
		el.mu.Lock()
		d := el.waits[key]
		delete(el.waits, key)
		el.mu.Unlock()
		if d != nil {
			d.Close()
		}
	})
}

// elicitForm is the dialog of an elicitation.
func elicitForm(e acp.Elicitation, lang i18n.Lang) window.Form {
	agent := safetext.Line(e.Agent)
	f := window.Form{Title: elicitText.Text(lang, elTitle, agent), Message: e.Message,
		Buttons: []string{elicitText.Text(lang, elAccept), elicitText.Text(lang, elDecline), elicitText.Text(lang, elCancel)}}
	if e.Title != "" {
		f.Title = elicitText.Text(lang, elTitleOf, agent, e.Title)
	}
	if e.Mode == acp.ElicitURL {
		f.Link = e.URL
		f.Buttons[0] = elicitText.Text(lang, elOpened)
		f.Message = strings.TrimSpace(e.Message + "\n" + elicitText.Text(lang, elOpenLink))
		return f
	}
	for _, fd := range e.Fields {
		f.Fields = append(f.Fields, formField(fd, lang))
	}
	return f
}

// formField is the dialog's field for one field of the schema.
func formField(fd acp.Field, lang i18n.Lang) window.FormField {
	ff := window.FormField{Label: fd.Title, Help: fd.Description, Required: fd.Required, Selected: -1}
	switch fd.Kind {
	case acp.FieldBoolean:
		ff.Kind, ff.On = window.FormBool, fd.Default == "true"
	case acp.FieldChoice:
		ff.Kind = window.FormChoice
		for i, c := range fd.Choices {
			ff.Choices = append(ff.Choices, c.Title)
			if fd.HasDefault && c.Value == fd.Default {
				ff.Selected = i
			}
		}
		ff.Validate = func(v string) string { _, msg := fd.Value(choiceValue(fd, v), lang); return msg }
	case acp.FieldMulti:
		ff.Kind = window.FormMulti
		for _, c := range fd.Choices {
			ff.Choices = append(ff.Choices, c.Title)
			ff.Picked = append(ff.Picked, contains(fd.DefaultSet, c.Value))
		}
		ff.Validate = func(v string) string { _, msg := fd.Values(pickedValues(fd, v), lang); return msg }
	default:
		ff.Kind, ff.Text = window.FormText, fd.Default
		ff.Validate = func(v string) string { _, msg := fd.Value(v, lang); return msg }
	}
	return ff
}

// elicitResult is the answer to the agent: accept with the values, decline, or cancel.
func elicitResult(e acp.Elicitation, r window.FormResult, ok bool, lang i18n.Lang) acp.ElicitationResult {
	switch {
	case !ok || r.Button == 2:
		return acp.ElicitationResult{Action: acp.ElicitCancel}
	case r.Button == 1:
		return acp.ElicitationResult{Action: acp.ElicitDecline}
	}
	content := map[string]any{}
	for i, fd := range e.Fields {
		var v any
		switch fd.Kind {
		case acp.FieldBoolean:
			v = r.On[i]
		case acp.FieldChoice:
			v, _ = fd.Value(choiceValue(fd, strconv.Itoa(r.Selected[i])), lang)
		case acp.FieldMulti:
			var picked []string
			for j, on := range r.Picked[i] {
				if on {
					picked = append(picked, fd.Choices[j].Value)
				}
			}
			if vs, msg := fd.Values(picked, lang); msg == "" && (len(vs) > 0 || fd.Required) {
				v = vs
			}
		default:
			v, _ = fd.Value(r.Texts[i], lang)
		}
		if v != nil {
			content[fd.Name] = v
		}
	}
	return acp.ElicitationResult{Action: acp.ElicitAccept, Content: content}
}

// choiceValue is the value of the choice at the index v ("" for none).
func choiceValue(fd acp.Field, v string) string {
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= len(fd.Choices) {
		return ""
	}
	return fd.Choices[i].Value
}

// pickedValues are the values at the indexes v ("1,3").
func pickedValues(fd acp.Field, v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if c := choiceValue(fd, s); c != "" {
			out = append(out, c)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type elicitMsg int

const (
	elTitle elicitMsg = iota
	elTitleOf
	elAccept
	elDecline
	elCancel
	elOpened
	elOpenLink
	elWaitTitle
	elWaiting
	elClose
)

var elicitText = i18n.NewCatalogue[elicitMsg]([]string{
	elTitle:     "%s asks",
	elTitleOf:   "%s asks: %s",
	elAccept:    "Send",
	elDecline:   "Decline",
	elCancel:    "Cancel",
	elOpened:    "Continue",
	elOpenLink:  "Open this link (click it, or copy it into a browser), then continue:",
	elWaitTitle: "%s is waiting",
	elWaiting:   "%s waits for the step at this link to be done; this closes by itself when it is.",
	elClose:     "Close",
}, []string{
	elTitle:     "%s demande",
	elTitleOf:   "%s demande : %s",
	elAccept:    "Envoyer",
	elDecline:   "Refuser",
	elCancel:    "Annuler",
	elOpened:    "Continuer",
	elOpenLink:  "Ouvrez ce lien (cliquez dessus, ou copiez-le dans un navigateur), puis continuez :",
	elWaitTitle: "%s attend",
	elWaiting:   "%s attend que l'étape de ce lien soit faite ; ceci se ferme tout seul quand elle l'est.",
	elClose:     "Fermer",
})
