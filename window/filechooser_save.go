package window

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The file chooser's save mode (FileChooser.Save): the field is the name of the file to
// write, the list shows the folder whole. Enter saves under the name typed, in the folder
// listed (or at the path typed from "/" or "~"); a name that is a folder opens it; a file
// that exists is replaced once the user confirms. After ↑↓ (or a click) Enter acts on the
// row highlighted instead: a folder opens, a file gives its name to the field.

// savePlace is what a save target is on disk.
type savePlace int

const (
	saveNew     savePlace = iota // nothing there yet, in a folder that exists
	saveFolder                   // a folder: open it
	saveFile                     // a file: replace it once confirmed
	saveNoPlace                  // its folder cannot take it: saveCheck.problem says why
)

// saveCheck is what a look at a save target found.
type saveCheck struct {
	place       savePlace
	problem     Label
	problemPath string
}

// saveEnter is Enter in save mode.
func (c *fileChooser) saveEnter() {
	name := c.filter.Text()
	if c.moved || strings.TrimSpace(name) == "" {
		c.activate(c.list.Current())
		return
	}
	target := expandHome(name, c.home)
	if !typedPath(name) {
		target = filepath.Join(c.folder, name)
	}
	c.gen++
	c.reading = true
	gen := c.gen
	c.app.Go(func() {
		check := checkSave(target)
		c.app.Post(func() { c.saveChecked(gen, target, check) })
	})
}

// checkSave looks at a save target. It does I/O: never call it on the UI goroutine.
func checkSave(target string) saveCheck {
	info, err := os.Stat(target)
	switch {
	case err == nil && info.IsDir():
		return saveCheck{place: saveFolder}
	case err == nil && info.Mode().IsRegular():
		return saveCheck{place: saveFile}
	case err == nil:
		return saveCheck{place: saveNoPlace, problem: LabelChooserUnreadable, problemPath: target}
	case !errors.Is(err, fs.ErrNotExist):
		return saveCheck{place: saveNoPlace, problem: folderProblem(err), problemPath: target}
	}
	dir := filepath.Dir(target)
	if info, err := os.Stat(dir); err != nil {
		return saveCheck{place: saveNoPlace, problem: folderProblem(err), problemPath: dir}
	} else if !info.IsDir() {
		return saveCheck{place: saveNoPlace, problem: LabelChooserNotFolder, problemPath: dir}
	}
	return saveCheck{place: saveNew}
}

// saveChecked acts on what saveEnter found, if the dialog still waits for it.
func (c *fileChooser) saveChecked(gen int, target string, check saveCheck) {
	if gen != c.gen || !c.dialog.Open() {
		return
	}
	if c.onRead != nil {
		defer c.onRead()
	}
	c.reading = false
	switch check.place {
	case saveNew:
		c.take(target)
	case saveFolder:
		c.filter.SetText(c.name) // the folder's name was typed to go there
		c.read(target, "", false)
	case saveFile:
		c.app.Confirm(c.app.labels.T(LabelConfirm), c.app.labels.Tf(LabelChooserReplace, c.shortPath(target)), func(yes bool) {
			if yes && c.dialog.Open() {
				c.take(target)
			}
		})
	default:
		c.problem, c.problemPath = check.problem, check.problemPath
	}
}
