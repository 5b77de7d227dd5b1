package app

import (
	"fmt"

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

var channelTexts = map[i18n.Lang]*[chmsgCount]string{
	i18n.English: {
		chmsgAddTitle:    "Add a member to #%s",
		chmsgRemoveTitle: "Remove a member from #%s",
		chmsgAllMembers:  "Every agent is already a member of #%s",
		chmsgNoMember:    "#%s has no member",
		chmsgAdded:       "%s added to #%s",
		chmsgRemoved:     "%s removed from #%s",
		chmsgLeft:        "%s left the channel",
	},
	i18n.French: {
		chmsgAddTitle:    "Ajouter un membre à #%s",
		chmsgRemoveTitle: "Retirer un membre de #%s",
		chmsgAllMembers:  "Tous les agents sont déjà membres de #%s",
		chmsgNoMember:    "#%s n'a aucun membre",
		chmsgAdded:       "%s ajouté à #%s",
		chmsgRemoved:     "%s retiré de #%s",
		chmsgLeft:        "%s a quitté le channel",
	},
}

// ct returns a channels text in the application's language, formatted with args.
func (x texts) ct(m chmsg, args ...any) string {
	msgs, ok := channelTexts[x.lang]
	if !ok {
		msgs = channelTexts[i18n.English]
	}
	if len(args) == 0 {
		return msgs[m]
	}
	return fmt.Sprintf(msgs[m], args...)
}
