package app

import (
	"context"
	"errors"
	"path"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// This file is Agent ▸ Sessions…: the sessions an agent keeps (session/list), with their
// title, date and folder, most recent first; the one chosen is continued in the agent's
// window (session/resume, or session/load when the agent cannot resume). A session of
// another folder than the agent's workspace is listed, marked, and not continued: the
// agent works in its workspace. The session open in the agent's window is marked
// "(open here)"; choosing it changes nothing and says so.

// sessionsTimeout bounds starting the agent and listing its sessions.
const sessionsTimeout = 2 * time.Minute

// showSessions lists the sessions of the agent of the focused window; elsewhere, of the
// agent chosen first (the only one, when there is one).
func (ap *application) showSessions() {
	if w := ap.focusedWindow(); w != nil && w.kind == winAgent {
		ap.listSessions(w.agent)
		return
	}
	switch len(ap.cfg.Agents) {
	case 0:
		ap.app.Flash(catalogue.Text(ap.lang, msgNoAgents))
		return
	case 1:
		ap.listSessions(ap.cfg.Agents[0].Name)
		return
	}
	var items []window.ChoiceItem
	for _, a := range ap.cfg.Agents {
		items = append(items, window.ChoiceItem{Text: agentLabel(a)})
	}
	agents := ap.cfg.Agents
	ap.app.Choose(window.Choice{Title: sessionsText.Text(ap.lang, sWhichAgent), Items: items}, func(i int, ok bool) {
		if ok && i < len(agents) {
			ap.listSessions(agents[i].Name)
		}
	})
}

// listSessions asks the agent for its sessions, off the screen's goroutine, then shows
// them.
func (ap *application) listSessions(name string) {
	lang := ap.lang
	ap.app.Flash(sessionsText.Text(lang, sListing, safetext.Line(name)))
	agents := ap.agents
	ap.app.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), sessionsTimeout)
		defer cancel()
		list, err := agents.ListSessions(ctx, name)
		ap.app.Post(func() {
			switch {
			case errors.Is(err, acp.ErrNoSessionList):
				ap.app.Flash(sessionsText.Text(lang, sNoList, safetext.Line(name)))
			case err != nil:
				ap.app.Flash(sessionsText.Text(lang, sListFailed, safetext.Line(name), firstLine(agentstack.DescribeError(err, lang))))
			case len(list.Sessions) == 0:
				ap.app.Flash(sessionsText.Text(lang, sNone, safetext.Line(name)))
			default:
				ap.chooseSession(name, list)
			}
		})
	})
}

// chooseSession shows the list and continues the session chosen.
func (ap *application) chooseSession(name string, list agentstack.SessionList) {
	lang := ap.lang
	var items []window.ChoiceItem
	for _, s := range list.Sessions {
		items = append(items, sessionItem(s, list, lang))
	}
	ap.app.Choose(window.Choice{Title: sessionsText.Text(lang, sTitle, safetext.Line(name)), Items: items}, func(i int, ok bool) {
		if !ok || i >= len(list.Sessions) {
			return
		}
		s := list.Sessions[i]
		if s.ID == list.Open {
			ap.app.Flash(sessionsText.Text(lang, sAlreadyOpen, sessionName(s)))
			return
		}
		if !sameFolder(s.Cwd, list.Workspace) {
			ap.app.Flash(sessionsText.Text(lang, sOtherFolder, shortFolder(s.Cwd), shortFolder(list.Workspace)))
			return
		}
		ap.continueSession(name, s)
	})
}

// sessionItem is a session's entry: its title (its id when it has none), its date and its
// folder; the session open in the window is marked so.
func sessionItem(s acp.SessionSummary, list agentstack.SessionList, lang i18n.Lang) window.ChoiceItem {
	mark := shortFolder(s.Cwd)
	if !s.Updated.IsZero() {
		mark = s.Updated.Local().Format("2006-01-02 15:04") + "  " + mark
	}
	it := window.ChoiceItem{Text: sessionName(s), Mark: mark, MarkClass: window.ClassComment}
	switch {
	case !sameFolder(s.Cwd, list.Workspace):
		it.Mark += " " + sessionsText.Text(lang, sElsewhere)
		it.MarkClass = window.ClassWarning
	case s.ID == list.Open:
		it.Mark += " " + sessionsText.Text(lang, sOpenHere)
		it.MarkClass = window.ClassString
	}
	return it
}

// sessionName is how a session is named: its title, its id when it has none.
func sessionName(s acp.SessionSummary) string {
	if s.Title == "" {
		return safetext.Line(s.ID)
	}
	return s.Title
}

// firstLine is the first line of an error's description, for the status bar (the agent's
// log has the rest).
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func sameFolder(a, b string) bool { return path.Clean(a) == path.Clean(b) }

// maxFolderShown is the most characters of a session's folder the list shows: the end of
// a longer one, after "…", so that the titles keep their room.
const maxFolderShown = 28

func shortFolder(p string) string {
	r := []rune(p)
	if len(r) <= maxFolderShown {
		return p
	}
	return "…" + string(r[len(r)-maxFolderShown+1:])
}

// continueSession opens the agent's window and makes it continue the session.
func (ap *application) continueSession(name string, s acp.SessionSummary) {
	lang := ap.lang
	ap.openAgent(name)
	ap.app.Flash(sessionsText.Text(lang, sOpening, sessionName(s)))
	agents := ap.agents
	ap.app.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), sessionsTimeout)
		defer cancel()
		err := agents.ContinueSession(ctx, name, s.ID, s.Title)
		ap.app.Post(func() {
			switch {
			case err == nil:
			case errors.Is(err, chat.ErrSessionOpen):
				ap.app.Flash(sessionsText.Text(lang, sAlreadyOpen, sessionName(s)))
			case errors.Is(err, chat.ErrTurnInProgress):
				ap.app.Flash(sessionsText.Text(lang, sBusy, safetext.Line(name)))
			default:
				ap.app.Flash(sessionsText.Text(lang, sOpenFailed, firstLine(agentstack.DescribeError(err, lang))))
			}
		})
	})
}

type sessionsMsg int

const (
	sWhichAgent sessionsMsg = iota
	sListing
	sNoList
	sListFailed
	sNone
	sTitle
	sElsewhere
	sOtherFolder
	sOpening
	sBusy
	sOpenFailed
	sItem
	sOpenHere
	sAlreadyOpen
)

var sessionsText = i18n.NewCatalogue[sessionsMsg]([]string{
	sWhichAgent:  "Sessions of which agent?",
	sListing:     "Asking %s for its sessions…",
	sNoList:      "%s does not list its sessions (no session/list)",
	sListFailed:  "Listing the sessions of %s failed: %s",
	sNone:        "%s has no earlier session",
	sTitle:       "Sessions of %s",
	sElsewhere:   "(another folder)",
	sOtherFolder: "This session cannot continue here: it works in %s, not in the agent's workspace %s",
	sOpening:     "Opening the session “%s”…",
	sBusy:        "%s has a turn in progress: wait for its end, or cancel it, then open the session again",
	sOpenFailed:  "The session could not be opened: %s",
	sItem:        "S~e~ssions…",
	sOpenHere:    "(open here)",
	sAlreadyOpen: "The session “%s” is already the one open in this window",
}, []string{
	sWhichAgent:  "Les sessions de quel agent ?",
	sListing:     "Demande de ses sessions à %s…",
	sNoList:      "%s ne liste pas ses sessions (pas de session/list)",
	sListFailed:  "La liste des sessions de %s a échoué : %s",
	sNone:        "%s n'a aucune session antérieure",
	sTitle:       "Sessions de %s",
	sElsewhere:   "(autre dossier)",
	sOtherFolder: "Cette session ne peut pas continuer ici : elle travaille dans %s, pas dans l'espace de travail de l'agent %s",
	sOpening:     "Ouverture de la session « %s »…",
	sBusy:        "%s a un tour en cours : attendez sa fin, ou annulez-le, puis ouvrez de nouveau la session",
	sOpenFailed:  "La session n'a pas pu être ouverte : %s",
	sItem:        "~S~essions…",
	sOpenHere:    "(ouverte ici)",
	sAlreadyOpen: "La session « %s » est déjà celle ouverte dans cette fenêtre",
})

// sessionsItem is the Agent menu's entry.
func sessionsItem(lang i18n.Lang, action func()) window.MenuItem {
	return window.MenuItem{Marked: sessionsText.Text(lang, sItem), Action: action}
}
