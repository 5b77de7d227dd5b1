package window_test

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// appDesktop gives the empty desktop the text an application gives it (Sidekicks'), which
// the goldens of the dialogs drawn over it show.
func appDesktop(h *harness) {
	h.do(func() {
		h.app.SetDesktopText(func() string { return "No window open: Alt-C for the channels, Alt-A for the agents." })
	})
}

// TestDesktopText: the empty desktop says the toolkit's text, or the application's in the
// App's language of the moment, and the toolkit's again once the application's is taken
// away.
func TestDesktopText(t *testing.T) {
	h := newHarness(t, 80, 24, withLanguage(i18n.French))
	if !strings.Contains(h.text(), "Aucune fenêtre ouverte.") {
		t.Fatalf("the toolkit's text is missing:\n%s", h.text())
	}
	h.do(func() {
		h.app.SetDesktopText(func() string {
			if h.app.Labels().Language() == i18n.French {
				return "Rien ici : Alt-C"
			}
			return "Nothing here: Alt-C"
		})
	})
	if !strings.Contains(h.text(), "Rien ici : Alt-C") {
		t.Fatalf("the application's text is missing:\n%s", h.text())
	}
	h.do(func() { h.app.SetLanguage(i18n.English) })
	if !strings.Contains(h.text(), "Nothing here: Alt-C") {
		t.Fatalf("the application's text did not follow the language:\n%s", h.text())
	}
	h.do(func() { h.app.SetDesktopText(nil) })
	if !strings.Contains(h.text(), "No window open.") || strings.Contains(h.text(), "Nothing here") {
		t.Fatalf("the toolkit's text did not come back:\n%s", h.text())
	}
	h.addWindows(1)
	if strings.Contains(h.text(), "No window open.") {
		t.Fatalf("the desktop's text shows under a window:\n%s", h.text())
	}
}
