package app

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// The first start, which creates the default configuration, says so on the screen: where
// the file is and how to edit it. Help ▸ About says the version and where every file is.
func TestAppFirstStartAndAboutSayWhereTheFilesAre(t *testing.T) {
	dir := appEnv(t)
	h := startApp(t, "", dir, func(_ *appHarness, o *appOptions) { o.version = "1.2.3" })
	def, err := config.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	screen := h.waitText("Default configuration created", "Sidekicks ▸ Edit configuration")
	// The path may wrap inside the dialog: read it without the frame and the spaces.
	flat := strings.NewReplacer("║", "", " ", "", "\n", "").Replace(screen)
	if !strings.Contains(flat, config.HomePath(def)) {
		t.Errorf("the notice does not name %s:\n%s", def, screen)
	}
	h.press(tcell.KeyEscape)
	h.waitGone("Default configuration created")

	h.press(tcell.KeyF10)
	h.press(tcell.KeyLeft) // Help, the last menu
	h.typeText("a")
	h.waitText("About Sidekicks", "Version: 1.2.3", "Configuration file: ", "History: ", "Logs folder: ")
	// A long path may be cut on screen: Enter copies the whole of it.
	for i, want := range []string{def, h.ap.st.Path()} {
		if i > 0 {
			h.press(tcell.KeyF10)
			h.press(tcell.KeyLeft)
			h.typeText("a")
			h.waitText("About Sidekicks")
			h.press(tcell.KeyDown)
		}
		h.press(tcell.KeyDown)
		h.press(tcell.KeyEnter)
		h.waitGone("About Sidekicks")
		var got string
		h.onUI(func() { got = h.ap.app.Clipboard() })
		if got != want {
			t.Errorf("entry %d copied %q, want %q", i+1, got, want)
		}
	}
}

// The texts of About and of the first start's notice have both languages, with the same
// verbs.
func TestAboutTextsComplete(t *testing.T) {
	for _, p := range aboutCatalogue.Problems(amsgItemAbout) {
		t.Error(p)
	}
}
