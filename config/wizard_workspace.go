package config

import (
	"errors"
	"io/fs"
	"os"
)

// This file lets the "Add an agent" wizard say that the new agent's workspace does not
// exist yet, and create it: an agent without its folder cannot start.

// noteMissingWorkspace adds to the preview the warning `sidekicks check` gives when the
// new agent's workspace does not exist (or is not a folder), and remembers the folder
// when it is missing, for CreateWorkspace. key is the agent's entry (agents[N]), the
// warning's Key as the loader's warnings about it have theirs.
func (p *WizardPreview) noteMissingWorkspace(a Agent, key string) {
	warnings := MissingWorkspaces([]Agent{a}, p.Lang)
	for _, w := range warnings {
		w.Key = key
		p.Warnings = append(p.Warnings, w)
	}
	if _, err := os.Stat(a.Workspace); len(warnings) > 0 && errors.Is(err, fs.ErrNotExist) {
		p.MissingWorkspace = a.Workspace
	}
}

// CreateWorkspace creates the previewed agent's workspace, with its parents, when it was
// missing at the preview (nothing to do otherwise). A folder created meanwhile is fine.
func CreateWorkspace(p WizardPreview) error {
	if p.MissingWorkspace == "" {
		return nil
	}
	return os.MkdirAll(p.MissingWorkspace, 0o755)
}
