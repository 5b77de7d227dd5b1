package app

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/store"
)

func TestAppChannelsThroughDialogs(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")

	// New channel: a name taken (case ignored) or too long is refused in the dialog.
	h.alt('c')
	h.waitText("New channel…")
	h.typeText("n")
	h.waitText("Channel name:")
	h.typeText("GÉNÉRAL")
	h.press(tcell.KeyEnter)
	h.waitText("#général already exists.")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText(strings.Repeat("x", store.MaxChannelName+1))
	h.press(tcell.KeyEnter)
	h.waitText("At most 64 characters.")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText("  Lab  ")
	h.press(tcell.KeyEnter)
	h.waitTitles("#général", "#ops", "#Lab")
	h.waitText("Channel #Lab created", "No member yet")

	// Rename the focused channel; changing only the case of its own name is allowed.
	h.alt('c')
	h.typeText("r")
	h.waitText("Rename channel")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText("ops")
	h.press(tcell.KeyEnter)
	h.waitText("#ops already exists.")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText("LAB")
	h.press(tcell.KeyEnter)
	h.waitTitles("#général", "#ops", "#LAB")
	h.waitText("Channel renamed to #LAB")

	// Delete asks first; No keeps it, Yes deletes it and its window.
	h.alt('c')
	h.typeText("d")
	h.waitText(`Delete the channel "LAB" and its history?`)
	h.typeText("n")
	h.waitGone("Delete the channel")
	h.waitTitles("#général", "#ops", "#LAB")
	h.alt('c')
	h.typeText("d")
	h.waitText(`Delete the channel "LAB" and its history?`)
	h.typeText("y")
	h.waitTitles("#général", "#ops")
	h.waitText("Channel #LAB deleted")
	h.alt('c')
	s := h.waitText("│ #général", "│ #ops", "New channel…")
	if strings.Contains(s, "│ #LAB") {
		t.Errorf("the Channels menu still lists the deleted channel:\n%s", s)
	}
	h.press(tcell.KeyEscape)
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	st := openStore(t, path)
	if _, err := st.ChannelByName("lab"); !errors.Is(err, store.ErrNoChannel) {
		t.Errorf("the deleted channel is still in the history: %v", err)
	}
	chans, err := st.Channels()
	if err != nil || len(chans) != 2 {
		t.Errorf("channels %+v, %v; want the two declared ones", chans, err)
	}
}

func TestAppOpenAnotherConfiguration(t *testing.T) {
	dir := appEnv(t)
	path := twoAgentsConfig(t, dir)
	other := filepath.Join(dir, "other.yaml")
	writeFile(t, other, "version: 1\nagents: []\n")
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	// A file that does not exist is refused; the application goes on.
	h.onUI(func() { h.ap.switchTo("nope.yaml") })
	h.waitText("nope.yaml does not exist")
	h.onUI(func() { h.ap.switchTo(path) })
	h.waitText("This configuration is the one open")
	// Sidekicks ▸ Open configuration, a path relative to the folder: the application stops
	// (agents stopped, windows saved) and says what to open next.
	h.press(tcell.KeyF10)
	h.typeText("o")
	h.waitText("Open configuration", "Name or path:")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText("other.yaml")
	h.press(tcell.KeyEnter)
	r := h.wait()
	if r.code != 0 || r.next != other {
		t.Fatalf("run returned %+v, want 0 and %s", r, other)
	}
	refs, saved, err := openStore(t, path).Windows()
	if err != nil || !saved || len(refs) != 2 {
		t.Errorf("saved windows %+v, %v, %v", refs, saved, err)
	}
}

func TestAppShowsHostileChannelNamesCleaned(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "c.yaml")
	writeFile(t, path, "version: 1\nagents: []\n")
	// A name the history accepts but that would reorder text on screen (a bidi override).
	st := openStoreAt(t, path)
	if _, err := st.CreateChannel("evil\u202Etxt.exe", ""); err != nil {
		t.Fatal(err)
	}
	st.Close()
	h := startApp(t, path, dir)
	h.alt('c')
	h.waitText("#eviltxt.exe")
	h.press(tcell.KeyEnter)
	h.waitTitles("#eviltxt.exe")
	if s := h.current(); strings.Contains(s, "\u202E") {
		t.Errorf("the bidi override reached the screen:\n%s", s)
	}
	// Rename and delete find it by the name shown.
	h.alt('c')
	h.typeText("r")
	h.waitText("Rename channel")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText("fine")
	h.press(tcell.KeyEnter)
	h.waitTitles("#fine")
}
