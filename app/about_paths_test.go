package app

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// The first start's notice and Help ▸ About show the paths the same wherever Sidekicks
// was started (here from /): absolute, ~ for the home folder, and whole on a wide screen.
func TestAboutShowsWholePathsFromTheHomeFolder(t *testing.T) {
	dir := appEnv(t)
	t.Chdir("/")
	h := startApp(t, "", dir, func(h *appHarness, _ *appOptions) {
		h.screen = windowtest.NewScreen(windowtest.ScreenConfig{Width: 200, Height: 40})
	})
	def, err := config.DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	shown := config.HomePath(def)
	if !strings.HasPrefix(shown, "~/") {
		t.Fatalf("HomePath(%s) = %s; want it from ~/", def, shown)
	}
	screen := h.waitText("Default configuration created")
	flat := strings.NewReplacer("║", "", " ", "", "\n", "").Replace(screen)
	if !strings.Contains(flat, "file,"+shown+",") {
		t.Errorf("the notice does not name %s:\n%s", shown, screen)
	}
	h.press(tcell.KeyEscape)
	h.waitGone("Default configuration created")

	h.press(tcell.KeyF10)
	h.press(tcell.KeyLeft) // Help, the last menu
	h.typeText("a")
	h.waitText("About Sidekicks", "Configuration file: "+shown+" ", "History: "+config.HomePath(h.ap.st.Path())+" ")
}
