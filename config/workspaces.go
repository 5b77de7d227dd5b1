package config

import (
	"os"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// workspaceMessage is what `sidekicks check` says of an agent's workspace.
type workspaceMessage int

const (
	wMissing workspaceMessage = iota
	wNotFolder
	workspaceMessageCount // not a message: the number of keys
)

var workspaceMessagesEN = [workspaceMessageCount]string{
	wMissing:   "agent %q: its workspace %s does not exist, so the agent cannot start; create it (mkdir -p %s) or change the agent's workspace",
	wNotFolder: "agent %q: its workspace %s is not a folder, so the agent cannot start; change the agent's workspace",
}

var workspaceMessagesFR = [workspaceMessageCount]string{
	wMissing:   "agent %q : son dossier de travail %s n'existe pas, l'agent ne peut donc pas démarrer ; créez-le (mkdir -p %s) ou changez le workspace de l'agent",
	wNotFolder: "agent %q : son dossier de travail %s n'est pas un dossier, l'agent ne peut donc pas démarrer ; changez le workspace de l'agent",
}

var workspaceCatalogue = i18n.NewCatalogue[workspaceMessage](workspaceMessagesEN[:], workspaceMessagesFR[:])

// MissingWorkspaces warns about each agent whose workspace (the folder it is started in)
// does not exist or is not a folder: such an agent fails at its first message. Each
// warning is at the agent's entry in the file it was read from, and names the folder.
func MissingWorkspaces(agents []Agent, lang i18n.Lang) Diagnostics {
	var out Diagnostics
	for _, a := range agents {
		if a.Workspace == "" {
			continue
		}
		fi, err := os.Stat(a.Workspace)
		var text string
		switch {
		case err != nil:
			ws := safetext.Escaped(ShellWord(a.Workspace))
			text = workspaceCatalogue.Text(lang, wMissing, safetext.Line(a.Name), ws, ws)
		case !fi.IsDir():
			text = workspaceCatalogue.Text(lang, wNotFolder, safetext.Line(a.Name), safetext.Escaped(ShellWord(a.Workspace)))
		default:
			continue
		}
		out = append(out, newDiagnostic(a.Source, lang, a.Line, 0, "", text, true))
	}
	return out
}
