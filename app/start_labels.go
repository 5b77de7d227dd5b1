package app

import "git.rickub.com/bots-garden/sidekicks/i18n"

// startMessage is what the status bar says at start about the configuration's load.
type startMessage int

const (
	smsgLoadedWithWarnings startMessage = iota
	startMessageCount                   // not a message: the number of keys
)

var startMessagesEN = [startMessageCount]string{
	smsgLoadedWithWarnings: "Configuration loaded, with %s (all in Agent ▸ Agent status)",
}

var startMessagesFR = [startMessageCount]string{
	smsgLoadedWithWarnings: "Configuration chargée, avec %s (tous dans Agent ▸ État des agents)",
}

var startCatalogue = i18n.NewCatalogue[startMessage](startMessagesEN[:], startMessagesFR[:])
