package app

import (
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// amsg is a text of Help ▸ About and of the first start's notice, in English and French;
// a catalogue of its own so that the application's stays as it is.
type amsg int

const (
	amsgItemAbout amsg = iota
	amsgAboutTitle
	amsgVersion
	amsgConfig
	amsgHistory
	amsgLogs
	amsgUnknown
	amsgCopied
	amsgCreatedTitle
	amsgCreated
	amsgCount // not a message: the number of keys
)

var aboutTextsEN = [amsgCount]string{
	amsgItemAbout:    "~A~bout Sidekicks…",
	amsgAboutTitle:   "About Sidekicks",
	amsgVersion:      "Version: %s",
	amsgConfig:       "Configuration file: %s",
	amsgHistory:      "History: %s",
	amsgLogs:         "Logs folder: %s",
	amsgUnknown:      "(unknown)",
	amsgCopied:       "copied: %s",
	amsgCreatedTitle: "Default configuration created",
	amsgCreated:      "Sidekicks created its configuration file, %s, with a demo agent and a first channel. Edit it now? Later: Sidekicks ▸ Edit configuration (each save applies at once); Help ▸ About says where it is.",
}

var aboutTextsFR = [amsgCount]string{
	amsgItemAbout:    "À ~p~ropos de Sidekicks…",
	amsgAboutTitle:   "À propos de Sidekicks",
	amsgVersion:      "Version : %s",
	amsgConfig:       "Fichier de configuration : %s",
	amsgHistory:      "Historique : %s",
	amsgLogs:         "Dossier des journaux : %s",
	amsgUnknown:      "(inconnu)",
	amsgCopied:       "copié : %s",
	amsgCreatedTitle: "Configuration par défaut créée",
	amsgCreated:      "Sidekicks a créé son fichier de configuration, %s, avec un agent de démonstration et un premier canal. Le modifier maintenant ? Plus tard : Sidekicks ▸ Modifier la configuration (chaque enregistrement s'applique aussitôt) ; Aide ▸ À propos dit où il est.",
}

// aboutCatalogue holds the texts of About and of the first start's notice in every language.
var aboutCatalogue = i18n.NewCatalogue[amsg](aboutTextsEN[:], aboutTextsFR[:])

// aboutEntry is one line of About: what it names and its value, which Enter copies.
type aboutEntry struct {
	label amsg
	value string
}

// aboutEntries are the lines of Help ▸ About: the version, the configuration file, the
// history file and the logs folder (Sidekicks' log and the agents' logs).
func (ap *application) aboutEntries() []aboutEntry {
	version := ap.o.version
	if version == "" {
		version = "dev"
	}
	history := ""
	if ap.st != nil {
		history = ap.st.Path()
	}
	logs, err := runtime.LogsDir()
	if err != nil {
		logs = ""
	}
	return []aboutEntry{{amsgVersion, version}, {amsgConfig, ap.path}, {amsgHistory, history}, {amsgLogs, logs}}
}

// showAbout shows Help ▸ About: one line each for the version, the configuration file, the
// history and the logs folder, the paths whole (absolute, ~ for the home folder) in a
// dialog as wide as the screen. Enter copies the highlighted line's value to the clipboard.
func (ap *application) showAbout() {
	t := func(m amsg, args ...any) string { return aboutCatalogue.Text(ap.lang, m, args...) }
	entries := ap.aboutEntries()
	items := make([]window.ChoiceItem, len(entries))
	for i, e := range entries {
		shown := t(amsgUnknown)
		switch {
		case e.label == amsgVersion:
			shown = safetext.Line(e.value)
		case e.value != "":
			shown = safetext.Line(config.HomePath(e.value))
		}
		items[i] = window.ChoiceItem{Text: t(e.label, shown)}
	}
	ap.app.Choose(window.Choice{Title: t(amsgAboutTitle), Items: items, Wide: true}, func(i int, ok bool) {
		if !ok || i < 0 || i >= len(entries) || entries[i].value == "" {
			return
		}
		ap.app.SetClipboard(entries[i].value)
		ap.app.Flash(t(amsgCopied, safetext.Line(entries[i].value)))
	})
}

// announceCreated says on the screen, at the first start, that the default configuration
// was just created, where it is and how to edit it; Yes opens it in the editor.
func (ap *application) announceCreated() {
	text := aboutCatalogue.Text(ap.lang, amsgCreated, safetext.Line(config.HomePath(ap.path)))
	ap.app.Confirm(aboutCatalogue.Text(ap.lang, amsgCreatedTitle), text, func(yes bool) {
		if yes {
			ap.editConfig()
		}
	})
}
