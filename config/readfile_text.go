package config

import (
	"errors"
	"fmt"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// readMessage is what is said when one of Sidekicks' own files cannot be read the way
// readBounded reads it, and what becomes of a damaged preferences file.
type readMessage int

const (
	rNotRegular readMessage = iota
	rTimedOut
	rDamagedPreferences
	readMessageCount // not a message: the number of keys
)

var readMessagesEN = [readMessageCount]string{
	rNotRegular:         "this is not a regular file (a named pipe, a device…); it is not read",
	rTimedOut:           "the file did not answer within %s (a network file system that stopped answering?); it is read again at its next save, or with Reload configuration",
	rDamagedPreferences: "the preferences file could not be understood; it is kept as %s and new preferences were written",
}

var readMessagesFR = [readMessageCount]string{
	rNotRegular:         "ce n'est pas un fichier ordinaire (un tube nommé, un périphérique…) ; il n'est pas lu",
	rTimedOut:           "le fichier n'a pas répondu en %s (un système de fichiers réseau qui ne répond plus ?) ; il est relu à son prochain enregistrement, ou par Recharger la configuration",
	rDamagedPreferences: "le fichier des préférences n'a pas pu être compris ; il est gardé sous le nom %s et de nouvelles préférences ont été écrites",
}

// readCatalogue holds the messages of readfile.go in every language.
var readCatalogue = i18n.NewCatalogue[readMessage](readMessagesEN[:], readMessagesFR[:])

// readRefusalText says, in lang, why readBounded refused a file, when it is one of its
// own refusals (not a regular file, no answer in time); ok is false for another error.
func readRefusalText(lang i18n.Lang, err error) (text string, ok bool) {
	var timeout *TimeoutError
	switch {
	case errors.Is(err, ErrNotRegular):
		return readCatalogue.Text(lang, rNotRegular), true
	case errors.As(err, &timeout):
		return readCatalogue.Text(lang, rTimedOut, secondsText(timeout.After)), true
	}
	return "", false
}

// secondsText writes a duration in seconds, "10 s", as both languages do.
func secondsText(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
}

// DamagedPreferencesText says, in lang, that the preferences file could not be
// understood and where it was kept (see PreferencesSaved).
func DamagedPreferencesText(lang i18n.Lang, kept string) string {
	return readCatalogue.Text(lang, rDamagedPreferences, safetext.Line(kept))
}
