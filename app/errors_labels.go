package app

import "git.rickub.com/bots-garden/sidekicks/i18n"

// errmsg is a text of what the application says about errors: where to look after an
// agent's error, why an agent could not start, a refused project agents file. A catalogue
// of its own, as chmsg is, so that the application's stays as it is.
type errmsg int

const (
	errmsgSeeAgentLog errmsg = iota
	errmsgFailure
	errmsgProjectRefused
	errmsgProjectIntro
	errmsgProjectReloaded
	errmsgCount // not a message: the number of keys
)

var errorTextsEN = [errmsgCount]string{
	errmsgSeeAgentLog:     "see its log: Agents panel ▸ l",
	errmsgFailure:         "Why: %s",
	errmsgProjectRefused:  "Refused: none of its agents is added until it is fixed",
	errmsgProjectIntro:    "%s was refused: none of its agents is available until it is fixed; the agents of %s are. Each save of either file is applied.",
	errmsgProjectReloaded: "%s refused: see Agent ▸ Agent status",
}

var errorTextsFR = [errmsgCount]string{
	errmsgSeeAgentLog:     "voir son journal : Panneau des agents ▸ l",
	errmsgFailure:         "Cause : %s",
	errmsgProjectRefused:  "Refusé : aucun de ses agents n'est ajouté tant qu'il n'est pas corrigé",
	errmsgProjectIntro:    "%s a été refusé : aucun de ses agents n'est disponible tant qu'il n'est pas corrigé ; ceux de %s le sont. Chaque enregistrement de l'un ou l'autre fichier est appliqué.",
	errmsgProjectReloaded: "%s refusé : voir Agent ▸ État des agents",
}

// errCatalogue holds these texts in every language.
var errCatalogue = i18n.NewCatalogue[errmsg](errorTextsEN[:], errorTextsFR[:])
