// Package wizard is the "Add an agent…" dialog: a form with the fields of the
// specification's table, a preview of the exact lines the configuration file will gain,
// and the write, done by the config package's comment-preserving append, which refuses
// with the loader's messages what would not load.
package wizard

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// wizard is the dialog's content: the form, then the preview.
type wizard struct {
	app     *window.App
	path    string
	lang    i18n.Lang
	onAdded func(name string)
	dialog  *window.Dialog
	form    *form
	preview *preview // nil on the form
	busy    bool     // a preview or a write runs on another goroutine
	gen     int      // the request whose answer is awaited; older answers are dropped
}

// Open opens the "Add an agent…" dialog for the configuration file at configPath, its
// labels in lang. Enter on the form shows the preview (the file is read off the UI
// goroutine); Add on the preview appends the agent with config.ApplyWizard, off the UI
// goroutine too, and on success closes the dialog, says so in the status bar and calls
// onAdded with the agent's name on the UI goroutine (the application reloads its
// configuration there, so the agent is usable at once).
// What the loader refuses is shown in the dialog, which stays open; Esc cancels. A write
// already under way when Esc is pressed still completes, and onAdded is still called.
// Call it on the UI goroutine.
func Open(app *window.App, configPath string, lang i18n.Lang, onAdded func(name string)) *window.Dialog {
	return open(app, configPath, lang, onAdded).dialog
}

func open(app *window.App, configPath string, lang i18n.Lang, onAdded func(name string)) *wizard {
	w := &wizard{app: app, path: configPath, lang: lang, onAdded: onAdded, form: newForm(lang)}
	w.dialog = app.OpenDialog(catalogue.Text(lang, tTitle), w, func() { w.gen++ })
	return w
}

// Size, Draw, HandleEvent and Hints make the wizard a window.DialogContent.

func (w *wizard) Size(_ window.Labels, maxW, maxH int) (int, int) {
	if w.preview != nil {
		return w.preview.size(maxW, maxH)
	}
	return w.form.size(maxW, maxH)
}

func (w *wizard) Draw(r window.Region, _ window.Labels) {
	if w.preview != nil {
		w.preview.draw(r)
		return
	}
	w.form.draw(r)
}

func (w *wizard) Hints() []window.Hint {
	if w.preview != nil {
		return w.preview.hints()
	}
	return w.form.hints()
}

func (w *wizard) HandleEvent(d *window.Dialog, ev window.Event) bool {
	if w.busy {
		return true // the answer comes soon; nothing changes meanwhile
	}
	if w.preview != nil {
		used, button := w.preview.handleEvent(ev)
		switch button {
		case previewAdd:
			w.write()
		case previewBack:
			w.preview = nil
		case previewCancel:
			d.Dismiss()
		}
		return used
	}
	used, action := w.form.handleEvent(ev)
	switch action {
	case formPreview:
		w.check()
	case formCancel:
		d.Dismiss()
	}
	return used
}

// check computes the preview on another goroutine and shows it, or the problems.
func (w *wizard) check() {
	in := w.form.input()
	w.busy = true
	w.form.status = catalogue.Text(w.lang, tChecking)
	w.gen++
	gen, app, path := w.gen, w.app, w.path
	app.Go(func() {
		p, err := config.PreviewWizard(path, in)
		app.Post(func() { w.checked(gen, in, p, err) })
	})
}

func (w *wizard) checked(gen int, in config.WizardInput, p config.WizardPreview, err error) {
	if gen != w.gen || !w.dialog.Open() {
		return
	}
	w.busy = false
	w.form.status = ""
	if err != nil {
		w.form.setProblems(w.messages(err, tReadFailed), w.fieldOf(err, in))
		return
	}
	w.form.setProblems(nil, noField)
	w.preview = newPreview(w.lang, w.path, p)
}

// write appends the previewed agent on another goroutine; when the agent's workspace
// does not exist, it asks first whether to create it (workspace.go).
func (w *wizard) write() {
	if w.preview.result.MissingWorkspace != "" {
		w.askCreateWorkspace()
		return
	}
	w.writeAgent(false)
}

// writeAgent appends the previewed agent on another goroutine, after creating its
// workspace when create is true.
func (w *wizard) writeAgent(create bool) {
	p := w.preview
	w.busy = true
	p.status = catalogue.Text(w.lang, tWriting)
	p.problems = nil
	w.gen++
	gen, app, path, result := w.gen, w.app, w.path, p.result
	app.Go(func() {
		var err error
		if create {
			err = createWorkspace(result)
		}
		if err == nil {
			err = config.ApplyWizard(path, result)
		}
		app.Post(func() { w.written(gen, result.Spec.Name, err) })
	})
}

func (w *wizard) written(gen int, name string, err error) {
	if err == nil {
		// Written, even when the dialog was closed meanwhile: the application must know.
		w.busy = false
		if w.dialog.Open() {
			w.dialog.Close()
		}
		w.app.Flash(catalogue.Text(w.lang, tAdded, name))
		if w.onAdded != nil {
			w.onAdded(name)
		}
		return
	}
	if gen != w.gen || !w.dialog.Open() {
		return
	}
	w.busy = false
	w.preview.status = ""
	w.preview.problems = w.writeProblems(err)
}

// messages turns an error of the config package into what the dialog shows: the
// loader's messages (errors only), the wizard's own in the dialog's language, or a
// sentence of the catalogue saying what the system refused.
func (w *wizard) messages(err error, ioLabel text) []string {
	var diags config.Diagnostics
	var we *config.WizardError
	switch {
	case errors.As(err, &diags):
		var out []string
		for _, d := range diags {
			if !d.Warning {
				out = append(out, d.Message)
			}
		}
		return out
	case errors.As(err, &we):
		return []string{we.Message(w.lang)}
	}
	reason := tOtherError
	switch {
	case errors.Is(err, fs.ErrPermission):
		reason = tDenied
	case errors.Is(err, fs.ErrNotExist):
		reason = tGone
	}
	return []string{catalogue.Text(w.lang, ioLabel, catalogue.Text(w.lang, reason))}
}

// fieldOf returns the field a problem is about: the one a *config.WizardError names, or
// the key of the loader's first error about the new agent.
func (w *wizard) fieldOf(err error, in config.WizardInput) fieldID {
	var we *config.WizardError
	if errors.As(err, &we) {
		switch we.Field {
		case config.FieldWhere:
			return fWhere
		case config.FieldProgram:
			return fProgram
		case config.FieldArguments:
			return fArguments
		case config.FieldAgentConfigFile:
			return fConfigFile
		case config.FieldLifecycleFolder:
			return fLifecycleFolder
		case config.FieldCreateCommand:
			return fCreate
		case config.FieldStopCommand:
			return fStop
		case config.FieldRemoveCommand:
			return fRemove
		}
		return noField
	}
	var diags config.Diagnostics
	if !errors.As(err, &diags) {
		return noField
	}
	// The new agent is the last one: the highest index the errors name.
	last := -1
	for _, d := range diags {
		if n, ok := agentIndex(d.Key); ok && !d.Warning {
			last = max(last, n)
		}
	}
	for _, d := range diags {
		if n, ok := agentIndex(d.Key); ok && n == last && !d.Warning {
			if id := fieldOfKey(d.Key, in); id != noField {
				return id
			}
		}
	}
	return noField
}

// agentIndex returns N of a key "agents[N]…".
func agentIndex(key string) (int, bool) {
	i := strings.Index(key, "]")
	if !strings.HasPrefix(key, "agents[") || i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(key[len("agents["):i])
	return n, err == nil
}

// fieldOfKey maps a key of the new agent ("agents[3].name") to the field it comes from.
func fieldOfKey(key string, in config.WizardInput) fieldID {
	rest := key[strings.Index(key, "]")+1:]
	switch {
	case rest == ".name":
		return fName
	case rest == ".title":
		return fTitle
	case rest == ".icon":
		return fIcon
	case rest == ".description":
		return fDescription
	case rest == ".workspace":
		return fFolder
	case rest == ".command" || strings.HasPrefix(rest, ".args") || rest == "" && strings.TrimSpace(in.Program) == "":
		return fProgram
	case rest == ".runtime" || rest == ".runtime.container" || rest == ".runtime.sandbox":
		switch in.Where {
		case config.WhereContainer:
			return fContainer
		case config.WhereSbx:
			return fSandbox
		}
	case strings.HasPrefix(rest, ".runtime.lifecycle"):
		return fLifecycleFolder
	}
	return noField
}
