package chatwin

import (
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// startingText is what the rule says while the agent starts: "starting the agent…", then,
// from the first second on, for how long ("starting… 12 s"), so that an agent slow to start
// (a container being created, a model loading) is seen to be waited for.
func (w *Widget) startingText(lang i18n.Lang) string {
	if w.agent.Started != nil {
		if since := w.agent.Started(); !since.IsZero() {
			if d := w.app.Now().Sub(since); d >= time.Second {
				return startingText.Text(lang, sStartingFor, int(d/time.Second))
			}
		}
	}
	return catalogue.Text(lang, tStarting)
}

type startingMsg int

const sStartingFor startingMsg = 0

var startingText = i18n.NewCatalogue[startingMsg](
	[]string{sStartingFor: "starting… %d s"},
	[]string{sStartingFor: "démarrage… %d s"},
)
