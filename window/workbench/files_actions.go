package workbench

import (
	"bytes"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// maxEdit is the largest file the built-in editor opens; maxExternal the largest file of
// a container or sandbox copied out for $EDITOR (a local file is edited where it is).
const (
	maxEdit     = 1 << 20
	maxExternal = 64 << 20
)

// errExists is a new entry's name already taken (found when listing again, just before).
var errExists = errors.New("already exists")

// targetFolder is where a new entry goes: the highlighted folder, or the folder of the
// highlighted file.
func (f *Files) targetFolder() string {
	r, ok := f.current()
	switch {
	case !ok:
		return rootPath
	case r.info.Dir:
		return r.info.Path
	}
	return parentOf(r.info.Path)
}

// folderLabel names a folder in a prompt.
func folderLabel(dir string) string {
	if dir == rootPath {
		return "./"
	}
	return dir + "/"
}

// nameCheck validates a name typed for an entry of dir; keep is the entry's own name
// (renaming it to itself is no change, not a clash).
func (f *Files) nameCheck(dir, keep string) func(string) string {
	lang := langOf(f.app)
	return func(name string) string {
		switch {
		case name == "":
			return catalogue.Text(lang, tNameNeeded)
		case strings.ContainsAny(name, "/\x00"):
			return catalogue.Text(lang, tNameSlash)
		case name == "." || name == "..":
			return catalogue.Text(lang, tNameDots)
		case name != keep && f.tree.has(dir, name):
			return catalogue.Text(lang, tNameExists, name)
		}
		return ""
	}
}

// protectedRefusal refuses a change to a protected path, or to one of Sidekicks' own
// files, before anything runs, saying why.
func (f *Files) protectedRefusal(p string) bool {
	if p == rootPath {
		f.say(true, catalogue.Text(langOf(f.app), tWorkspaceItself))
		return true
	}
	if k := f.ws.Own(p); k != runtime.OwnNone {
		f.say(true, ownLockedText(langOf(f.app), p, k))
		return true
	}
	if f.ws.Protected(p) {
		f.say(true, catalogue.Text(langOf(f.app), tProtected, p))
		return true
	}
	return false
}

// newEntry asks for a name and creates an empty file or a folder in the target folder.
func (f *Files) newEntry(folder bool) {
	lang := langOf(f.app)
	dir := f.targetFolder()
	title := tNewFileTitle
	if folder {
		title = tNewFolderTitle
	}
	entry := window.TextEntry{Title: catalogue.Text(lang, title), Prompt: catalogue.Text(lang, tNewIn, folderLabel(dir)), Validate: f.nameCheck(dir, "")}
	f.app.AskText(entry, func(name string, ok bool) {
		if !ok {
			return
		}
		p := joinPath(dir, name)
		if f.protectedRefusal(p) {
			return
		}
		f.tree.folder(dir).open = true
		f.ops.Do(func() {
			ctx, cancel := f.opContext()
			defer cancel()
			// The listing shown may be old: look again just before, and never overwrite.
			entries, err := f.ws.List(ctx, dir)
			switch {
			case err != nil:
			case hasName(entries, name):
				err = errExists
			case folder:
				err = f.ws.Mkdir(ctx, p)
			default:
				err = f.ws.WriteFile(ctx, p, nil)
			}
			f.app.Post(func() { f.done(err, p, folder, catalogue.Text(lang, tCreated, p)) })
		})
	})
}

func hasName(entries []runtime.FileInfo, name string) bool {
	for _, e := range entries {
		if e.Name == name {
			return true
		}
	}
	return false
}

// done reports the end of a change, lists again and highlights p.
func (f *Files) done(err error, p string, dir bool, ok string) {
	lang := langOf(f.app)
	switch {
	case errors.Is(err, errExists):
		f.say(true, catalogue.Text(lang, tNameExists, path.Base(p)))
	case err != nil:
		f.say(true, errorText(lang, err, p, dir, f.ws))
	default:
		f.say(false, ok)
		f.selectNext = p
		if r, ok := f.current(); ok {
			f.selectFrom = r.info.Path
		} else {
			f.selectFrom = ""
		}
	}
	f.refresh()
}

// rename asks for a new name of the highlighted entry, in the same folder.
func (f *Files) rename() {
	r, ok := f.current()
	if !ok || f.protectedRefusal(r.info.Path) {
		return
	}
	lang := langOf(f.app)
	from, dir := r.info.Path, parentOf(r.info.Path)
	entry := window.TextEntry{Title: catalogue.Text(lang, tRenameTitle), Prompt: catalogue.Text(lang, tRenameAsk, r.info.Name), Text: r.info.Name, Validate: f.nameCheck(dir, r.info.Name)}
	f.app.AskText(entry, func(name string, ok bool) {
		to := joinPath(dir, name)
		if !ok || to == from || f.protectedRefusal(to) {
			return
		}
		f.ops.Do(func() {
			ctx, cancel := f.opContext()
			err := f.ws.Rename(ctx, from, to)
			cancel()
			f.app.Post(func() {
				if err != nil {
					f.say(true, errorText(lang, err, from, r.info.Dir, f.ws))
					f.refresh()
					return
				}
				f.done(nil, to, r.info.Dir, catalogue.Text(lang, tRenamed, to))
			})
		})
	})
}

// delete asks, then deletes the highlighted entry (a folder with everything in it).
func (f *Files) delete() {
	r, ok := f.current()
	if !ok || f.protectedRefusal(r.info.Path) {
		return
	}
	lang := langOf(f.app)
	p := r.info.Path
	ask := tDeleteFileAsk
	if r.info.Dir {
		ask = tDeleteFolderAsk
	}
	f.app.Confirm(catalogue.Text(lang, tDeleteTitle), catalogue.Text(lang, ask, p), func(yes bool) {
		if !yes {
			return
		}
		f.ops.Do(func() {
			ctx, cancel := f.opContext()
			err := f.ws.Delete(ctx, p)
			cancel()
			f.app.Post(func() {
				if err != nil {
					f.say(true, errorText(lang, err, p, r.info.Dir, f.ws))
				} else {
					f.say(false, catalogue.Text(lang, tDeleted, p))
				}
				f.refresh()
			})
		})
	})
}

// edit opens the highlighted file in the built-in editor.
func (f *Files) edit() {
	r, ok := f.current()
	if !ok || r.info.Dir || f.protectedRefusal(r.info.Path) {
		return
	}
	lang := langOf(f.app)
	p := r.info.Path
	if r.info.Size > maxEdit {
		f.say(true, catalogue.Text(lang, tNotEditable, p))
		return
	}
	f.ops.Do(func() {
		ctx, cancel := f.opContext()
		data, err := f.ws.ReadFile(ctx, p, maxEdit)
		cancel()
		f.app.Post(func() {
			switch {
			case errors.Is(err, runtime.ErrTooLarge):
				f.say(true, catalogue.Text(lang, tNotEditable, p))
			case err != nil:
				f.say(true, errorText(lang, err, p, false, f.ws))
			case len(data) > maxEdit || isBinary(data) || !utf8.Valid(data):
				f.say(true, catalogue.Text(lang, tNotEditable, p))
			default:
				_, _, _ = OpenEditor(EditorOptions{
					App: f.app, Workspace: f.ws, Path: p, Content: data, Owner: f.agent.Title,
					OnSaved: f.refresh,
				})
			}
		})
	})
}

// editExternal edits the highlighted file in $EDITOR, the screen suspended. A local file
// is edited where it is; a file in a container or sandbox is copied out to a temporary
// file, and written back (atomically, through the workspace) when the editor changed it
// and exited with success.
func (f *Files) editExternal() {
	r, ok := f.current()
	if !ok || r.info.Dir || f.protectedRefusal(r.info.Path) {
		return
	}
	lang := langOf(f.app)
	p := r.info.Path
	if local, ok := f.ws.(*runtime.LocalWorkspace); ok {
		full, err := localFile(local.Root(), p)
		if err != nil {
			f.say(true, errorText(lang, err, p, false, f.ws))
			return
		}
		if name, err := runEditor(f.app, full); err != nil {
			f.say(true, catalogue.Text(lang, tEditorFailed, name, err))
		}
		f.reread(p)
		return
	}
	f.ops.Do(func() {
		ctx, cancel := f.opContext()
		data, err := f.ws.ReadFile(ctx, p, maxExternal)
		cancel()
		var tmpDir, tmp string
		if err == nil {
			tmpDir, tmp, err = tempCopy(path.Base(p), data)
		}
		f.app.Post(func() {
			if err != nil {
				f.say(true, errorText(lang, err, p, false, f.ws))
				return
			}
			name, edErr := runEditor(f.app, tmp)
			f.ops.Do(func() { f.writeBack(p, data, tmpDir, tmp, name, edErr) })
		})
	})
}

// writeBack writes an edited copy back to the workspace when it changed, and removes it.
func (f *Files) writeBack(p string, before []byte, tmpDir, tmp, editor string, edErr error) {
	defer os.RemoveAll(tmpDir)
	lang := langOf(f.app)
	after, err := os.ReadFile(tmp)
	var msg string
	bad := true
	switch {
	case edErr != nil:
		msg = catalogue.Text(lang, tEditorFailed, editor, edErr)
	case err != nil:
		msg = catalogue.Text(lang, tFailed, p, err.Error())
	case bytes.Equal(before, after):
		msg, bad = catalogue.Text(lang, tUnchanged, p), false
	default:
		ctx, cancel := f.opContext()
		err = f.ws.WriteFile(ctx, p, after)
		cancel()
		if err != nil {
			msg = errorText(lang, err, p, false, f.ws)
		} else {
			msg, bad = catalogue.Text(lang, tSaved, p), false
		}
	}
	f.app.Post(func() {
		f.say(bad, msg)
		f.reread(p)
	})
}

// reread lists again and reads the file viewed again, whatever its time says.
func (f *Files) reread(p string) {
	if f.view != nil && f.view.info.Path == p {
		f.view = nil
	}
	f.refresh()
}

// localFile returns where a workspace file is on disk, its links resolved, refused when
// it leads out of the workspace.
func localFile(root, rel string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	full, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", err
	}
	if r, err := filepath.Rel(realRoot, full); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", runtime.ErrOutside
	}
	return full, nil
}

// tempCopy writes data to a new private folder under the file's own name (so that the
// editor recognises its kind).
func tempCopy(name string, data []byte) (dir, file string, err error) {
	dir, err = os.MkdirTemp("", "sidekicks-edit-")
	if err != nil {
		return "", "", err
	}
	file = filepath.Join(dir, name)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", "", err
	}
	return dir, file, nil
}
