package app

import (
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// chmsg is a text of the channels' part of the application (the member entries of the
// Channels menu, their dialogs and messages), in English and French, as msg is for the
// rest; a catalogue of its own so that the application's stays as it is.
type chmsg int

const (
	chmsgAddTitle chmsg = iota
	chmsgRemoveTitle
	chmsgAllMembers
	chmsgNoMember
	chmsgAdded
	chmsgRemoved
	chmsgLeft
	chmsgCount // not a message: the number of keys
)

var channelTextsEN = [chmsgCount]string{
	chmsgAddTitle:    "Add a member to #%s",
	chmsgRemoveTitle: "Remove a member from #%s",
	chmsgAllMembers:  "Every agent is already a member of #%s",
	chmsgNoMember:    "#%s has no member",
	chmsgAdded:       "%s added to #%s",
	chmsgRemoved:     "%s removed from #%s",
	chmsgLeft:        "%s left the channel",
}

var channelTextsFR = [chmsgCount]string{
	chmsgAddTitle:    "Ajouter un membre à #%s",
	chmsgRemoveTitle: "Retirer un membre de #%s",
	chmsgAllMembers:  "Tous les agents sont déjà membres de #%s",
	chmsgNoMember:    "#%s n'a aucun membre",
	chmsgAdded:       "%s ajouté à #%s",
	chmsgRemoved:     "%s retiré de #%s",
	chmsgLeft:        "%s a quitté le channel",
}

// channelCatalogue holds the channels' texts in every language.
var channelCatalogue = i18n.NewCatalogue[chmsg](channelTextsEN[:], channelTextsFR[:])
