package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// This file edits the configuration from the screen: Sidekicks ▸ Edit configuration opens
// the file in the user's editor, and Agent ▸ Create agents file writes the starter project
// agents file, then opens it the same way. Both read the files again once the editor ends.

// editConfig opens the configuration file in $EDITOR with the screen suspended; once the
// editor ends, a file that changed is read again.
func (ap *application) editConfig() {
	path := ap.path
	changed, err := ap.editFile(path)
	switch {
	case changed:
		ap.log.Printf("%s was edited from the screen", path)
		ap.reloadAfterWrite()
	case err == nil:
		ap.app.Flash(panelCatalogue.Text(ap.lang, pmsgUnchanged, safetext.Line(filepath.Base(path))))
	}
}

// reloadAfterWrite reads the configuration file again after it was written from the
// screen. Its watcher, when it runs, applies the write within a moment (100 ms), as it
// applies every save: reading it here too would apply it twice, and the second status
// message would hide the first's news.
func (ap *application) reloadAfterWrite() {
	if ap.watcher == nil {
		ap.reload()
	}
}

// canCreateAgentsFile says whether the folder Sidekicks was started in has no project
// agents file yet (as of the last load), so that Create agents file can write one.
func (ap *application) canCreateAgentsFile() bool {
	return ap.o.dir != "" && ap.cur.project == "" && !ap.panel.creating
}

// createAgentsFile writes the commented starter project agents file in the configuration's
// language (never over an existing one), then opens it in $EDITOR, and reads the files again
// so that its agents are in the menus at once (Agent ▸ Create agents file).
func (ap *application) createAgentsFile() {
	if !ap.canCreateAgentsFile() {
		return
	}
	path := filepath.Join(ap.o.dir, config.ProjectFile)
	// Its demo agent is this very Sidekicks, so that it starts whatever PATH holds.
	exe, err := os.Executable()
	if err != nil {
		ap.log.Printf("the starter agents file names \"sidekicks\", to be found in PATH: %v", err)
	}
	starter := config.ProjectStarterFileIn(ap.lang, exe)
	// The file's saves are followed from before it is written, so that its creation is
	// applied like any save: by the watcher started with the application when its folder
	// existed then, or by one started here.
	follow := ap.projectWatcher == nil && !ap.panel.followsProject
	ap.panel.creating, ap.panel.followsProject = true, true
	done := ap.done
	ap.work.Do(func() {
		watched := !follow
		if follow {
			watched = ap.followProject(path, done)
		}
		err := writeNewFile(path, starter)
		if err == nil {
			// Sidekicks' own starter file is allowed as written; a later edit makes a
			// content the user allows again.
			if aerr := config.Allow(path, starter); aerr != nil {
				ap.log.Printf("allowing the starter agents file: %v", aerr)
			}
		}
		ap.app.Post(func() { ap.agentsFileWritten(path, watched, err) })
	})
}

// agentsFileWritten opens the project agents file just written in the editor, or says why
// it was not written (screen's goroutine). Its watcher applies it; without one, it is
// read once the editor ends.
func (ap *application) agentsFileWritten(path string, watched bool, err error) {
	ap.panel.creating = false
	shown := safetext.Line(path)
	switch {
	case errors.Is(err, fs.ErrExist):
		// Written meanwhile by someone else: read it rather than replace it.
		ap.app.Flash(panelCatalogue.Text(ap.lang, pmsgAgentsFileExists, shown))
		ap.reload()
		return
	case err != nil:
		ap.log.Printf("creating the project agents file: %v", err)
		ap.app.Flash(panelCatalogue.Text(ap.lang, pmsgAgentsFileFailed, shown, fileProblem(ap.lang, err)))
		return
	}
	ap.log.Printf("created the project agents file %s", path)
	ap.cur.project = path
	ap.app.Flash(panelCatalogue.Text(ap.lang, pmsgAgentsFileCreated, shown))
	ap.editFile(path)
	if !watched {
		ap.panel.followsProject = false // the next creation tries again
		ap.reload()
	}
}

// followProject applies each save of the project agents file at path until done is
// closed (the screen stopped); it creates the file's folder first. It reports whether the
// saves are followed. It does I/O: call it off the screen's goroutine.
func (ap *application) followProject(path string, done <-chan struct{}) bool {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		ap.log.Printf("saves of %s are not followed: %v", path, err)
		return false
	}
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := config.WatchWith(ctx, path, ap.watchOptions(), ap.reload); err != nil {
		cancel()
		ap.log.Printf("saves of %s are not followed: %v", path, err)
		return false
	}
	go func() {
		<-done
		cancel()
	}()
	return true
}

// writeNewFile creates path with data, and the folders above it; it refuses to replace a
// file that exists (fs.ErrExist). The file is the user's alone (0600): an agents file's
// env may hold API keys.
func writeNewFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating the folder of %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// fileProblem says in the user's language why a file could not be written.
func fileProblem(lang i18n.Lang, err error) string { return store.FileProblem(lang, err) }

// editFile lends the terminal to the user's editor on path and takes it back: the screen
// is suspended meanwhile (the screen's goroutine waits for the editor, by design, as for
// the terminal of an agent). It reports whether the file changed, and says in the status
// bar when the editor could not run or failed.
func (ap *application) editFile(path string) (changed bool, err error) {
	editor := editorCommand()
	err = ap.app.Suspend(func() error {
		// The screen's goroutine is lent to the editor: reading the file around it adds
		// nothing to the wait.
		before, _ := config.ReadConfigFile(context.Background(), path)
		cmd := exec.Command("/bin/sh", "-c", editor+` "$1"`, "sidekicks-editor", path)
		in, out, errOut, done := lendTerminal()
		defer done()
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errOut
		runErr := cmd.Run()
		after, readErr := config.ReadConfigFile(context.Background(), path)
		changed = readErr == nil && !bytes.Equal(before, after)
		return runErr
	})
	if err != nil {
		ap.log.Printf("editing %s with %q: %v", path, editor, err)
		ap.app.Flash(panelCatalogue.Text(ap.lang, pmsgEditorFailed, safetext.Line(editor), safetext.Line(err.Error())))
	}
	return changed, err
}

// editorCommand is the user's editor: $EDITOR, else $VISUAL, else vi, read by the shell
// as git does (so that "code --wait" works); the file's path is passed as an argument,
// never written into the shell's text.
func editorCommand() string {
	for _, v := range []string{"EDITOR", "VISUAL"} {
		if e := os.Getenv(v); e != "" {
			return e
		}
	}
	return "vi"
}

// lendTerminal returns the terminal to lend to the editor: the controlling terminal,
// which the screen draws on whatever Sidekicks' own stdout is; Sidekicks' stdin, stdout
// and stderr when there is none.
func lendTerminal() (in, out, errOut *os.File, done func()) {
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		return tty, tty, tty, func() { tty.Close() }
	}
	return os.Stdin, os.Stdout, os.Stderr, func() {}
}

// canAllowProject says whether the project agents file defines agents the user has not
// allowed (as of the last load), so that Allow project agents… can show it.
func (ap *application) canAllowProject() bool { return ap.cur.pending.Path != "" }

// allowProject shows each agent of the project agents file not allowed yet as it would
// run (its command line, workspace and variables), or that it will be left out when the
// configuration has an agent of its name, and asks to allow it; a Yes records the
// approval of the content shown, then reads the files again (Agent ▸ Allow project
// agents…).
func (ap *application) allowProject() {
	p := ap.cur.pending
	if p.Path == "" {
		return
	}
	var b strings.Builder
	for _, a := range p.Agents {
		for _, l := range config.DescribeProjectAgent(ap.lang, a) {
			b.WriteString(safetext.Line(l) + "\n")
		}
		// Where names collide, the user sees before allowing that theirs is kept.
		if collision := config.ProjectCollision(ap.cfg, a, ""); collision != "" {
			b.WriteString("  " + safetext.Line(collision) + "\n")
		}
	}
	ask := catalogue.Text(ap.lang, msgAllowProjectAsk, safetext.Line(p.Path), b.String())
	ap.app.Confirm(catalogue.Text(ap.lang, msgAllowProjectTitle), ask, func(yes bool) {
		if !yes {
			return
		}
		ap.work.Do(func() {
			err := p.Allow()
			ap.app.Post(func() {
				if err != nil {
					ap.log.Printf("allowing %s: %v", p.Path, err)
					ap.app.Flash(catalogue.Text(ap.lang, msgAllowProjectFailed, safetext.Line(err.Error())))
					return
				}
				ap.log.Printf("the user allowed the project agents file %s", p.Path)
				ap.reload()
			})
		})
	})
}
