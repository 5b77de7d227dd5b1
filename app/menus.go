package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// menuHandlers wires the menus to the application. Every handler runs on the screen's
// goroutine and hands its slow part to the worker.
func (ap *application) menuHandlers() menuHandlers {
	return ap.panelHandlers(menuHandlers{
		OpenConfig:  ap.askConfig,
		RecentFiles: func() []string { return append([]string(nil), ap.recent...) },
		OpenRecent:  ap.switchTo,
		Reload:      ap.reload,

		SearchHistory:      ap.showSearch,
		CanExport:          func() bool { _, ok := ap.focusedKey(); return ok },
		ExportConversation: ap.askExport,
		Quit:               ap.quit,
		About:              ap.showAbout,

		Channels: func() []string {
			names := make([]string, len(ap.channels))
			for i, ch := range ap.channels {
				names[i] = shownName(ch)
			}
			return names
		},
		OpenChannel: func(name string) {
			if ch, ok := ap.channelByName(name); ok {
				ap.openChannel(ch.ID)
			}
		},
		NewChannel:     ap.newChannel,
		CurrentChannel: ap.currentChannel,
		RenameChannel:  ap.renameChannel,
		DeleteChannel:  ap.deleteChannel,
		ChannelUnread: func(name string) bool {
			ch, ok := ap.channelByName(name)
			if !ok {
				return false
			}
			w := ap.find(winChannel, ch.ID, "")
			return w != nil && w.win.Unread()
		},
		AddMember:    ap.askAddMember,
		RemoveMember: ap.askRemoveMember,

		PermissionRequests: ap.showPermissionRequests,
		Requests:           func() int { return len(chatwin.RequestsOf(ap.app).Pending()) },

		Agents: func() []agentEntry {
			entries := make([]agentEntry, len(ap.cfg.Agents))
			for i, a := range ap.cfg.Agents {
				entries[i] = agentEntry{Name: a.Name, Title: safetext.Line(a.Title), Icon: safetext.Line(a.Icon)}
			}
			return entries
		},
		OpenAgent:   ap.openAgent,
		CanCancel:   ap.canCancel,
		CancelTurn:  ap.cancelTurn,
		AgentStatus: ap.showStatus,

		SignIn: ap.signIn, Secrets: ap.showSecrets, SessionOptions: ap.sessionOptions,
		Sessions: ap.showSessions,
	})
}

// focusedWindow returns the application's window that has the keyboard, nil when none.
func (ap *application) focusedWindow() *appWindow {
	f := ap.app.Focused()
	for _, w := range ap.wins {
		if w.win == f {
			return w
		}
	}
	return nil
}

// currentChannel is the channel of the focused window, "" when it shows none.
func (ap *application) currentChannel() string {
	if w := ap.focusedWindow(); w != nil && w.kind == winChannel {
		if ch, ok := ap.channelByID(w.channel); ok {
			return shownName(ch)
		}
	}
	return ""
}

// channelNameProblem checks a new name for a channel (except its own, when renaming):
// 1 to 64 characters, no control character, unique without case. "" when it is good.
func (ap *application) channelNameProblem(name string, self store.ChannelID) string {
	clean := strings.TrimSpace(name)
	if n := utf8.RuneCountInString(clean); n > store.MaxChannelName {
		return catalogue.Text(ap.lang, msgNameTooLong, store.MaxChannelName)
	}
	if !utf8.ValidString(clean) || strings.IndexFunc(clean, unicode.IsControl) >= 0 {
		return catalogue.Text(ap.lang, msgNameControl)
	}
	if ch, ok := ap.channelByName(clean); ok && ch.ID != self {
		return catalogue.Text(ap.lang, msgNameTaken, shownName(ch))
	}
	return ""
}

// newChannel creates a channel and opens its window.
func (ap *application) newChannel(name string) string {
	if p := ap.channelNameProblem(name, 0); p != "" {
		return p
	}
	ap.work.Do(func() {
		ch, err := ap.st.CreateChannel(name, "")
		chans, lerr := ap.st.Channels()
		ap.app.Post(func() {
			if err != nil {
				ap.logFailure(err)
				return
			}
			ap.setChannels(chans, lerr)
			ap.openChannel(ch.ID)
			ap.app.Flash(catalogue.Text(ap.lang, msgChannelCreated, shownName(ch)))
		})
	})
	return ""
}

// renameChannel renames a channel; its window follows.
func (ap *application) renameChannel(old, name string) string {
	ch, ok := ap.channelByName(old)
	if !ok {
		return ""
	}
	if p := ap.channelNameProblem(name, ch.ID); p != "" {
		return p
	}
	ap.work.Do(func() {
		err := ap.st.RenameChannel(ch.ID, name)
		chans, lerr := ap.st.Channels()
		ap.app.Post(func() {
			if err != nil {
				ap.logFailure(err)
				return
			}
			ap.setChannels(chans, lerr)
			renamed, ok := ap.channelByID(ch.ID)
			if ok {
				ap.app.Flash(catalogue.Text(ap.lang, msgChannelRenamed, shownName(renamed)))
				ap.offerChannelFileChange(ch.Name, renamed.Name)
			}
		})
	})
	return ""
}

// deleteChannel deletes a channel and its history (the user confirmed), and closes its
// window.
func (ap *application) deleteChannel(name string) {
	ch, ok := ap.channelByName(name)
	if !ok {
		return
	}
	ap.work.Do(func() {
		err := ap.st.DeleteChannel(ch.ID)
		chans, lerr := ap.st.Channels()
		ap.app.Post(func() {
			if err != nil && !errors.Is(err, store.ErrNoChannel) {
				ap.logFailure(err)
				return
			}
			if w := ap.find(winChannel, ch.ID, ""); w != nil {
				w.win.Close()
			}
			ap.setChannels(chans, lerr)
			ap.app.Flash(catalogue.Text(ap.lang, msgChannelDeleted, shownName(ch)))
			ap.offerChannelFileChange(ch.Name, "")
		})
	})
}

// setChannels takes a new list of channels read from the history and shows it.
func (ap *application) setChannels(chans []store.Channel, err error) {
	if err != nil {
		ap.log.Printf("%v", err)
		return
	}
	ap.channels = chans
	ap.refreshViews()
}

// focusedKey returns the conversation of the focused window, false when it shows none.
func (ap *application) focusedKey() (chat.Key, bool) {
	w := ap.focusedWindow()
	switch {
	case w == nil:
		return chat.Key{}, false
	case w.kind == winAgent:
		return chat.AgentKey(w.agent), true
	case w.kind == winChannel:
		return chat.ChannelKey(int64(w.channel)), true
	}
	return chat.Key{}, false
}

// canCancel says whether a turn runs in the focused window.
func (ap *application) canCancel() bool {
	k, has := ap.focusedKey()
	return has && ap.agents.Busy(k)
}

// cancelTurn cancels the turns running in the focused window (Agent ▸ Cancel turn).
func (ap *application) cancelTurn() {
	c := ap.agents
	k, has := ap.focusedKey()
	if !has || !c.Busy(k) {
		ap.app.Flash(catalogue.Text(ap.lang, msgNoTurn))
		return
	}
	ap.log.Printf("cancelling the turns of %s", k)
	ap.work.Do(func() { c.Cancel(k) })
}

// askConfig asks for another configuration file to open (Sidekicks ▸ Open configuration)
// in a file chooser that starts in the current configuration's folder.
func (ap *application) askConfig() {
	ap.app.ChooseFile(window.FileChooser{
		Title:      catalogue.Text(ap.lang, msgOpenConfigTitle),
		Dir:        filepath.Dir(ap.path),
		Extensions: []string{".yaml", ".yml"},
	}, func(path string, ok bool) {
		if ok {
			ap.switchTo(path)
		}
	})
}

// switchTo stops this configuration and starts again on the file at path, once it is known
// to exist: the agents are stopped and the windows saved as when quitting.
func (ap *application) switchTo(path string) {
	dir := ap.o.dir
	ap.work.Do(func() {
		abs, err := absConfigPath(path, dir)
		exists := err == nil
		if exists {
			_, err = os.Stat(abs)
			exists = err == nil
		}
		ap.app.Post(func() {
			switch {
			case !exists:
				ap.app.Flash(catalogue.Text(ap.lang, msgOpenConfigMissing, path))
			case abs == ap.path:
				ap.app.Flash(catalogue.Text(ap.lang, msgSameConfig))
			default:
				ap.log.Printf("opening the configuration %s", abs)
				ap.next = abs
				ap.quit()
			}
		})
	})
}

// absConfigPath makes a path typed by the user absolute: a leading ~ is the home folder, a
// relative path is relative to the folder Sidekicks was started in.
func absConfigPath(path, dir string) (string, error) {
	if path == "~" || strings.HasPrefix(path, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("expanding %s: %w", path, err)
		}
		path = filepath.Join(home, path[1:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return filepath.Clean(path), nil
}
