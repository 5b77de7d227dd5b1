package app

import (
	"context"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// quit saves the open windows, then stops every agent, showing that it waits for them and
// their afterStop commands, then stops the screen (Alt-X, Sidekicks ▸ Quit).
func (ap *application) quit() {
	if ap.quitting {
		return
	}
	ap.quitting = true
	refs := ap.windowRefs()
	lang := ap.lang
	ap.log.Printf("quitting")
	go ap.stopSearches() // a search under way gives up: none is waited for
	ap.app.Shutdown(catalogue.Text(lang, msgWaitingAgents), func(report func(string)) {
		ap.saveWindows(refs)
		ap.shutdownAgents(func(ev runtime.Event) { report(stoppingText(lang, ev)) })
	})
}

// saveWindows remembers the open windows in the history (off the screen's goroutine).
func (ap *application) saveWindows(refs []store.WindowRef) {
	if err := ap.st.SaveWindows(refs); err != nil {
		ap.log.Printf("%v", err)
	}
}

// shutdownAgents stops every agent and waits for their afterStop commands; report, when
// given, hears each change of their states meanwhile.
func (ap *application) shutdownAgents(report func(runtime.Event)) {
	defer ap.stopped.Store(true)
	ctx, cancel := context.WithTimeout(context.Background(), ap.o.shutdownTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- ap.agents.Shutdown(ctx) }()
	events, unsubscribe := ap.agents.Subscribe()
	defer unsubscribe()
	for {
		select {
		case ev := <-events:
			if report != nil {
				report(ev)
			}
		case err := <-done:
			ap.noteUnsaved(err)
			if err != nil {
				ap.log.Printf("stopping the agents: %v", err)
			} else {
				ap.log.Printf("every agent stopped")
			}
			ap.logs.Flush()
			return
		}
	}
}

// stoppingText says which agents are still being stopped.
func stoppingText(lang i18n.Lang, ev runtime.Event) string {
	var names []string
	for _, st := range ev.States {
		if st.Pid > 0 || st.State == runtime.Stopping || st.State == runtime.Starting {
			names = append(names, st.Name)
		}
	}
	if len(names) == 0 {
		return catalogue.Text(lang, msgStoppingNone)
	}
	return catalogue.Text(lang, msgStopping, joinNames(names))
}

// joinNames lists names with commas.
func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}
