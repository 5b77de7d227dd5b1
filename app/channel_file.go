package app

import (
	"errors"
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// This file keeps the configuration file in step with a channel it declares that the user
// renamed or deleted in the application. A declared channel is created at each load when no
// channel has its name: renamed or deleted only in the history, it would come back at the
// next save of the file. So, once the channel is renamed or deleted, a dialog says so and
// offers to change the file the same way (config.RenameChannelInFile,
// config.RemoveChannelFromFile: only that channel's lines change, comments are kept).

// declaredChannel reports whether the running configuration declares a channel named
// name, case aside, as the history matches declared channels.
func (ap *application) declaredChannel(name string) bool {
	if ap.cfg == nil {
		return false
	}
	for _, c := range ap.cfg.Channels {
		if strings.EqualFold(c.Name, name) {
			return true
		}
	}
	return false
}

// offerChannelFileChange asks, after the channel old was renamed to name (deleted when
// name is ""), whether to change the configuration file that declares it the same way.
// Nothing is asked when the file does not declare it, or when only the case changed (the
// file's channel is still this one). Screen's goroutine.
func (ap *application) offerChannelFileChange(old, name string) {
	if !ap.declaredChannel(old) || name != "" && strings.EqualFold(old, name) {
		return
	}
	file := safetext.Line(filepath.Base(ap.path))
	shownOld := safetext.Line(old)
	ask := chfmsgAskRename
	if name == "" {
		ask = chfmsgAskRemove
	}
	text := channelFileCatalogue.Text(ap.lang, ask, shownOld, file, safetext.Line(name))
	ap.app.Confirm(channelFileCatalogue.Text(ap.lang, chfmsgTitle, file), text, func(yes bool) {
		if !yes {
			ap.app.Flash(channelFileCatalogue.Text(ap.lang, chfmsgKept, shownOld, file))
			return
		}
		ap.changeChannelInFile(old, name)
	})
}

// changeChannelInFile renames (or removes, name "") the channel old in the configuration
// file, off the screen's goroutine, and says how it went. The file's watcher applies the
// change as it applies every save.
func (ap *application) changeChannelInFile(old, name string) {
	path, lang := ap.path, ap.lang
	ap.work.Do(func() {
		var err error
		if name == "" {
			err = config.RemoveChannelFromFile(path, old)
		} else {
			err = config.RenameChannelInFile(path, old, name)
		}
		ap.app.Post(func() {
			file, shownOld := safetext.Line(filepath.Base(path)), safetext.Line(old)
			switch {
			case err != nil:
				ap.log.Printf("changing the channel %q in %s: %v", old, path, err)
				ap.app.Flash(channelFileCatalogue.Text(lang, chfmsgFailed, file, channelFileReason(lang, err), shownOld))
			case name == "":
				ap.log.Printf("the channel %q was removed from %s", old, path)
				ap.app.Flash(channelFileCatalogue.Text(lang, chfmsgRemoved, file, shownOld))
				ap.reloadAfterWrite()
			default:
				ap.log.Printf("the channel %q was renamed to %q in %s", old, name, path)
				ap.app.Flash(channelFileCatalogue.Text(lang, chfmsgRenamed, file, shownOld, safetext.Line(name)))
				ap.reloadAfterWrite()
			}
		})
	})
}

// channelFileReason says in a few words why the file could not be changed.
func channelFileReason(lang i18n.Lang, err error) string {
	var diags config.Diagnostics
	var refused *config.ChangeRefusedError
	switch {
	case errors.As(err, &refused) && len(refused.Diags) > 0:
		return channelFileCatalogue.Text(lang, chfmsgWouldBreak, safetext.Line(refused.Diags[0].Message))
	case errors.As(err, &diags):
		return channelFileCatalogue.Text(lang, chfmsgHasErrors)
	case errors.Is(err, config.ErrChannelsInFlowStyle):
		return channelFileCatalogue.Text(lang, chfmsgFlowStyle)
	case errors.Is(err, config.ErrChannelNotDeclared):
		return channelFileCatalogue.Text(lang, chfmsgNotDeclared)
	}
	return safetext.Line(err.Error())
}

// chfmsg is a text of the offer to change the file that declares a channel.
type chfmsg int

const (
	chfmsgTitle chfmsg = iota
	chfmsgAskRename
	chfmsgAskRemove
	chfmsgKept
	chfmsgRenamed
	chfmsgRemoved
	chfmsgFailed
	chfmsgHasErrors
	chfmsgFlowStyle
	chfmsgNotDeclared
	chfmsgWouldBreak
	chfmsgCount // not a message: the number of keys
)

var channelFileTextsEN = [chfmsgCount]string{
	chfmsgTitle:       "Declared in %s",
	chfmsgAskRename:   "#%[1]s is declared in %[2]s, which creates it at each load: unless the file changes too, #%[1]s comes back at its next save. Rename it to #%[3]s in the file as well? (Only its name changes; comments are kept.)",
	chfmsgAskRemove:   "#%[1]s is declared in %[2]s, which creates it at each load: unless the file changes too, #%[1]s comes back, empty, at its next save. Remove it from the file as well? (Only its lines go; comments elsewhere are kept.)",
	chfmsgKept:        "#%s stays declared in %s: it comes back at the file's next save",
	chfmsgRenamed:     "%s updated: #%s is now #%s there too",
	chfmsgRemoved:     "%s updated: #%s removed from it too",
	chfmsgFailed:      "%s was not changed (%s): #%s comes back at its next save unless you change it there",
	chfmsgHasErrors:   "it has errors",
	chfmsgFlowStyle:   "its channels are written as [ … ]",
	chfmsgNotDeclared: "it no longer declares that channel",
	chfmsgWouldBreak:  "the change would give it an error: %s",
}

var channelFileTextsFR = [chfmsgCount]string{
	chfmsgTitle:       "Déclaré dans %s",
	chfmsgAskRename:   "#%[1]s est déclaré dans %[2]s, qui le crée à chaque chargement : si le fichier ne change pas aussi, #%[1]s revient à sa prochaine sauvegarde. Le renommer aussi en #%[3]s dans le fichier ? (Seul son nom change ; les commentaires sont gardés.)",
	chfmsgAskRemove:   "#%[1]s est déclaré dans %[2]s, qui le crée à chaque chargement : si le fichier ne change pas aussi, #%[1]s revient, vide, à sa prochaine sauvegarde. Le retirer aussi du fichier ? (Seules ses lignes partent ; les commentaires ailleurs sont gardés.)",
	chfmsgKept:        "#%s reste déclaré dans %s : il revient à la prochaine sauvegarde du fichier",
	chfmsgRenamed:     "%s mis à jour : #%s y est aussi devenu #%s",
	chfmsgRemoved:     "%s mis à jour : #%s en est aussi retiré",
	chfmsgFailed:      "%s n'a pas été modifié (%s) : #%s revient à sa prochaine sauvegarde si vous ne l'y changez pas",
	chfmsgHasErrors:   "il a des erreurs",
	chfmsgFlowStyle:   "ses canaux sont écrits entre [ … ]",
	chfmsgNotDeclared: "il ne déclare plus ce canal",
	chfmsgWouldBreak:  "le changement y mettrait une erreur : %s",
}

// channelFileCatalogue holds the texts of the offer in every language.
var channelFileCatalogue = i18n.NewCatalogue[chfmsg](channelFileTextsEN[:], channelFileTextsFR[:])
