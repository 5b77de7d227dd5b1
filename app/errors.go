package app

import (
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// errorsIntro is the first line of the errors window for the load l: it names the file
// that was refused. When only the project agents file was (the configuration loaded), it
// says so, and that the configuration's agents work; otherwise it is the application's
// text key about the configuration file at path.
func (ap *application) errorsIntro(l loaded, key msg, path string) string {
	if l.cfg != nil && l.refused != nil {
		return errCatalogue.Text(ap.lang, errmsgProjectIntro, safetext.Line(l.project), safetext.Line(path))
	}
	return catalogue.Text(ap.lang, key, path)
}

// showProjectRefusal opens the errors window about a refused project agents file, once
// the configuration's own load is applied; it closes the window when nothing was refused.
func (ap *application) showProjectRefusal(l loaded) {
	if l.refused == nil {
		ap.closeErrors()
		return
	}
	ap.showErrors(ap.errorsIntro(l, msgErrorsKept, ap.path), l)
}

// projectRefusedText is what the status bar says of a refused project agents file.
func (ap *application) projectRefusedText() string {
	return errCatalogue.Text(ap.lang, errmsgProjectReloaded, config.ProjectFile)
}
