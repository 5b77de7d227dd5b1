package chat

import "git.rickub.com/bots-garden/sidekicks/i18n"

// routeMsgKey names a text of channel routing (the input line's hints, the line that says an
// agent joined), in every language of routeCatalogue. It is a catalogue of its own, beside
// msgKey's, so that msgKey's keys stay all declared in messages.go.
type routeMsgKey int

const (
	rmsgAddress routeMsgKey = iota
	rmsgNoMembers
	rmsgCommandForm
	rmsgUnknownAgent
	rmsgJoined
	routeMsgCount // not a message: the number of keys
)

// routeMessagesEN and routeMessagesFR hold every routing message; a %s stands for a value
// given by the code (agents' names), already sanitized.
var routeMessagesEN = [routeMsgCount]string{
	rmsgAddress:      "Nobody was addressed, so this stays here as a note. To ask an agent, mention it: %s",
	rmsgNoMembers:    "Nobody is in this channel yet, so this stays here as a note. Mention an agent with @name to add it.",
	rmsgCommandForm:  "In a channel, a command names its agent: /name:command (type / to list them).",
	rmsgUnknownAgent: "No agent is called “%s”; type / to list the members' commands.",
	rmsgJoined:       "%s joined the channel",
}

var routeMessagesFR = [routeMsgCount]string{
	rmsgAddress:      "Personne n'est nommé : le message reste ici comme une note. Pour vous adresser à un agent, mentionnez-le : %s",
	rmsgNoMembers:    "Ce channel n'a encore aucun membre : le message reste ici comme une note. Mentionnez un agent avec @nom pour l'ajouter.",
	rmsgCommandForm:  "Dans un channel, une commande nomme son agent : /nom:commande (tapez / pour les lister).",
	rmsgUnknownAgent: "Aucun agent ne s'appelle « %s » ; tapez / pour lister les commandes des membres.",
	rmsgJoined:       "%s a rejoint le channel",
}

// routeCatalogue holds the routing messages in every language.
var routeCatalogue = i18n.NewCatalogue[routeMsgKey](routeMessagesEN[:], routeMessagesFR[:])
