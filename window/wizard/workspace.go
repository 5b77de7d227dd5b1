package wizard

import (
	"errors"
	"io/fs"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// This file offers to create the new agent's workspace when it does not exist: Add on the
// preview then asks, in a list, whether to create the folder and add the agent, or to add
// it without the folder (it cannot start until the folder exists); Esc goes back to the
// preview.

// Entries of the question, in order.
const (
	createAndAdd = iota
	addWithout
)

// askCreateWorkspace asks what to do about the missing workspace, then writes.
func (w *wizard) askCreateWorkspace() {
	folder := safetext.Line(shortPath(w.preview.result.MissingWorkspace))
	w.app.Choose(window.Choice{
		Title: catalogue.Text(w.lang, tNoFolderTitle, folder),
		Items: []window.ChoiceItem{
			{Text: catalogue.Text(w.lang, tCreateAndAdd)},
			{Text: catalogue.Text(w.lang, tAddWithout)},
		},
	}, func(i int, ok bool) {
		if ok && w.dialog.Open() && w.preview != nil && !w.busy {
			w.writeAgent(i == createAndAdd)
		}
	})
}

// workspaceError is a workspace the wizard could not create.
type workspaceError struct {
	path string
	err  error
}

func (e *workspaceError) Error() string { return "creating " + e.path + ": " + e.err.Error() }
func (e *workspaceError) Unwrap() error { return e.err }

// createWorkspace creates the previewed agent's workspace (off the UI goroutine).
func createWorkspace(p config.WizardPreview) error {
	if err := config.CreateWorkspace(p); err != nil {
		return &workspaceError{path: p.MissingWorkspace, err: err}
	}
	return nil
}

// writeProblems says why the write failed: the folder that could not be created, or the
// file's problems.
func (w *wizard) writeProblems(err error) []string {
	var we *workspaceError
	if !errors.As(err, &we) {
		return w.messages(err, tWriteFailed)
	}
	reason := tOtherError
	if errors.Is(err, fs.ErrPermission) {
		reason = tDenied
	}
	return []string{catalogue.Text(w.lang, tCreateFailed, safetext.Line(shortPath(we.path)), catalogue.Text(w.lang, reason))}
}
