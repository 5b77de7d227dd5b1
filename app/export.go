package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// This file is Sidekicks ▸ Export conversation…: the focused window's conversation, whole
// from the history (not only what the window loaded), to a Markdown file chosen in the file
// chooser (export_markdown.go writes it).

// askExport asks where to write the focused window's conversation, then writes it.
func (ap *application) askExport() {
	k, ok := ap.focusedKey()
	if !ok || ap.st == nil {
		ap.app.Flash(searchCatalogue.Text(ap.lang, fmsgExportNothing))
		return
	}
	title, base := ap.exportTitle(k)
	ap.chooseExport(k, title, ap.o.dir, base+"-"+ap.now().Format("2006-01-02")+".md")
}

// chooseExport opens the file chooser in dir, proposing name, and exports k's conversation
// to the file chosen.
func (ap *application) chooseExport(k chat.Key, title, dir, name string) {
	ap.app.ChooseFile(window.FileChooser{
		Title:      searchCatalogue.Text(ap.lang, fmsgExportTitle),
		Dir:        dir,
		Extensions: []string{".md", ".markdown"},
		Save:       true,
		Name:       name,
	}, func(path string, ok bool) {
		if ok {
			ap.export(k, title, path)
		}
	})
}

// exportFailed says why the export to path failed, naming path (not the hidden file written
// first), and offers to choose another place: yes opens the chooser again, in path's
// folder when it is one, the name kept.
func (ap *application) exportFailed(k chat.Key, title, path string, err error) {
	lang := ap.lang
	msg := searchCatalogue.Text(lang, fmsgExportFailed, path, exportReason(err))
	ap.app.Flash(msg)
	ap.app.Confirm(searchCatalogue.Text(lang, fmsgExportTitle), msg+"\n\n"+searchCatalogue.Text(lang, fmsgExportAgain), func(yes bool) {
		if !yes {
			return
		}
		dir := filepath.Dir(path)
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			dir = ap.o.dir
		}
		ap.chooseExport(k, title, dir, filepath.Base(path))
	})
}

// exportReason is what went wrong, without the name of the file it happened to: the
// system's words for a file's error ("permission denied"), else the error.
func exportReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// exportTitle is the title of a conversation's document and the start of its file name.
func (ap *application) exportTitle(k chat.Key) (title, base string) {
	if k.Agent != "" {
		return ap.agentTitle(k.Agent), fileWord(k.Agent)
	}
	if ch, ok := ap.channelByID(store.ChannelID(k.Channel)); ok {
		return channelTitle(ch), fileWord(ch.Name)
	}
	return "#" + fmt.Sprint(k.Channel), "channel"
}

// fileWord makes a name fit a file name: letters, digits, - and _ kept, the rest a -.
func fileWord(s string) string {
	w := strings.Trim(strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' {
			return r
		}
		return '-'
	}, s), "-")
	if w == "" {
		return "conversation"
	}
	return w
}

// export writes the conversation of k to path on a goroutine of its own (a long history
// must not hold up the worker's other work), and says how it went.
func (ap *application) export(k chat.Key, title, path string) {
	st, lang, now := ap.st, ap.lang, ap.now()
	name := ap.exportNames()
	ap.app.Flash(searchCatalogue.Text(lang, fmsgExporting, path))
	ap.app.Go(func() {
		n, err := exportConversation(st, k, path, func(f *os.File) *markdownExport {
			return newMarkdownExport(f, lang, title, now, name)
		})
		ap.app.Post(func() {
			if err != nil {
				ap.log.Printf("exporting %s to %s: %v", k, path, err)
				ap.exportFailed(k, title, path, err)
				return
			}
			ap.log.Printf("exported %s to %s: %d entries", k, path, n)
			ap.app.Flash(searchCatalogue.Text(lang, fmsgExported, n, path))
		})
	})
}

// exportNames returns how the export names an agent: its title as configured now, read
// once on the screen's goroutine (the export runs on another).
func (ap *application) exportNames() func(string) string {
	titles := map[string]string{}
	for _, a := range ap.cfg.Agents {
		titles[a.Name] = agentTitleText(a)
	}
	return func(name string) string {
		if t, ok := titles[name]; ok {
			return t
		}
		return name
	}
}

// exportConversation writes every entry of k's conversation in the history to path: to a
// file beside it first, renamed over path once whole, so that a failure never leaves half
// a file (nor spoils one being replaced). The file is readable by its owner only: a
// conversation may hold secrets. It returns how many entries were written.
func exportConversation(st *store.Store, k chat.Key, path string, start func(*os.File) *markdownExport) (int, error) {
	var conv store.ConvID
	var err error
	if k.Agent != "" {
		conv, err = st.AgentConversation(k.Agent)
	} else {
		conv, err = st.ChannelConversation(store.ChannelID(k.Channel))
	}
	if err != nil {
		return 0, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return 0, fmt.Errorf("creating the export file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	m := start(f)
	err = st.EachEntry(conv, m.entry)
	err = errors.Join(err, m.finish(), f.Chmod(0o600), f.Close())
	if err != nil {
		return 0, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return 0, fmt.Errorf("putting the export in place: %w", err)
	}
	return m.n, nil
}
