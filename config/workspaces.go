package config

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"gopkg.in/yaml.v3"
)

// workspaceMessage is what the loader says of an agent's workspace.
type workspaceMessage int

const (
	wMissing workspaceMessage = iota
	wNotFolder
	workspaceMessageCount // not a message: the number of keys
)

var workspaceMessagesEN = [workspaceMessageCount]string{
	wMissing:   "agent %s: its workspace %s does not exist, so the agent cannot start; create it (mkdir -p %s) or change the agent's workspace",
	wNotFolder: "agent %s: its workspace %s is not a folder, so the agent cannot start; change the agent's workspace",
}

var workspaceMessagesFR = [workspaceMessageCount]string{
	wMissing:   "agent %s : son dossier de travail %s n'existe pas, l'agent ne peut donc pas démarrer ; créez-le (mkdir -p %s) ou changez le workspace de l'agent",
	wNotFolder: "agent %s : son dossier de travail %s n'est pas un dossier, l'agent ne peut donc pas démarrer ; changez le workspace de l'agent",
}

var workspaceCatalogue = i18n.NewCatalogue[workspaceMessage](workspaceMessagesEN[:], workspaceMessagesFR[:])

// workspaceProblem says what is wrong with the workspace of the agent name: nothing (ok
// false) when it is a folder.
func workspaceProblem(lang i18n.Lang, name, workspace string) (text string, ok bool) {
	fi, err := os.Stat(workspace)
	switch {
	case err != nil:
		ws := safetext.Escaped(ShellWord(workspace))
		return workspaceCatalogue.Text(lang, wMissing, q(lang, name), ws, ws), true
	case !fi.IsDir():
		return workspaceCatalogue.Text(lang, wNotFolder, q(lang, name), safetext.Escaped(ShellWord(workspace))), true
	}
	return "", false
}

// MissingWorkspaces warns about each agent whose workspace (the folder it is started in)
// does not exist or is not a folder: such an agent fails at its first message. Each
// warning is at the agent's entry in the file it was read from, and names the folder.
func MissingWorkspaces(agents []Agent, lang i18n.Lang) Diagnostics {
	var out Diagnostics
	for _, a := range agents {
		if a.Workspace == "" {
			continue
		}
		if text, ok := workspaceProblem(lang, a.Name, a.Workspace); ok {
			out = append(out, newDiagnostic(a.Source, lang, a.Line, 0, "", text, true))
		}
	}
	return out
}

// LoadChecked is LoadContext, adding from the same read the warnings about workspaces
// that are missing or not folders (see workspaceWarnings), in the order of the file:
// what the application and `sidekicks check` say of a configuration.
func LoadChecked(ctx context.Context, path string) (*Config, Diagnostics, i18n.Lang) {
	cfg, diags, lang, path, data := load(ctx, path)
	if data == nil {
		return cfg, diags, lang
	}
	diags = append(diags, workspaceWarnings(path, data, lang)...)
	slices.SortStableFunc(diags, func(a, b Diagnostic) int { return a.Line - b.Line })
	return cfg, diags, lang
}

// workspaceWarnings warns, at its workspace key (agents[N].workspace, its line and
// column), about each agent of the configuration data (read from path) whose workspace
// is written but is missing or not a folder. It says so whatever other problems the file
// has: an entry whose name and workspace are text is enough to know which folder is
// missing. An agent without a workspace works in the file's folder, which exists.
func workspaceWarnings(path string, data []byte, lang i18n.Lang) Diagnostics {
	root, err := parseTree(data)
	if err != nil || len(data) > maxFileSize {
		return nil
	}
	l := &loader{file: path, dir: filepath.Dir(path), lang: lang}
	_, agents := field(root, "agents")
	if agents == nil || agents.Kind != yaml.SequenceNode {
		return nil
	}
	for i, item := range agents.Content {
		item = resolve(item)
		if item == nil || item.Kind != yaml.MappingNode {
			continue
		}
		name, nameOK := stringValue(valueOf(item, "name"))
		key, value := field(item, "workspace")
		ws, wsOK := stringValue(value)
		if !nameOK || !wsOK || ws == "" || key == nil {
			continue
		}
		if text, ok := workspaceProblem(lang, name, l.expandPath(ws)); ok {
			l.warnAt(key.Line, key.Column, joinKey(joinIndex("agents", i), "workspace"), text)
		}
	}
	return l.diags
}
