package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// Sidekicks writes the cells a frame changed to the terminal itself (window.termWriter);
// SIDEKICKS_DRAW=tcell has tcell draw every frame, as before. The same session typed in
// both, step by step, must leave the same screen, colours and attributes included: text,
// Markdown with a link (whose frames tcell draws), wide characters, a flood, a menu that
// opens over a window and closes, a resize, scrolling, a window closed.
func TestTermWriterDrawsWhatTcellDraws(t *testing.T) {
	dir := t.TempDir()
	cfg, _ := agentWinConfig(t, dir)
	own := startTerminal(t, append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir()), dir, 120, 40, binary, "--config", cfg)
	ref := startTerminal(t, append(isolate(t), "SIDEKICKS_DEMO_STATE="+t.TempDir(), "SIDEKICKS_DRAW=tcell"), dir, 120, 40,
		binary, "--config", cfg)
	both := []*terminal{own, ref}
	step := func(what, until string, act func(term *terminal)) {
		t.Helper()
		for _, term := range both {
			act(term)
		}
		for _, term := range both {
			term.waitFor(until, appWait)
		}
		sameScreens(t, what, own, ref)
	}
	step("the first screen", "No window open", func(*terminal) {})
	step("Alice's window", "/ at the start lists", func(term *terminal) {
		term.keys("M-a")
		term.waitFor("Agent status", appWait)
		term.keys("Enter")
	})
	step("a message typed", "wide é", func(term *terminal) {
		term.typeText("show **bold** `code` and [a link](https://example.com) 日本語 wide é")
	})
	step("the answer", "Here is a small example", func(term *terminal) { term.keys("Enter") })
	step("a flood", "flood line 0003000", func(term *terminal) {
		term.typeText("/floodlines 3000")
		term.keys("Enter")
	})
	step("a menu open", "Open configuration", func(term *terminal) { term.keys("M-s") })
	step("the menu closed", "F1 Help", func(term *terminal) {
		term.keys("Escape")
		waitGone(t, term, "Open configuration")
	})
	step("a resize", "flood line 0003000", func(term *terminal) { term.tmux("resize-window", "-t", "0", "-x", "97", "-y", "31") })
	step("scrolled up", "A Alice", func(term *terminal) { term.keys("PageUp", "PageUp") })
	step("the Agent menu over the smaller screen, closed", "A Alice", func(term *terminal) {
		term.keys("M-a")
		term.waitFor("Agent status", appWait)
		term.keys("Escape")
		waitGone(t, term, "Agent status")
	})
	step("the window closed", "No window open", func(term *terminal) { term.keys("C-w") })
}

// sameScreens waits until the two terminals show the same cells in the same colours and
// attributes (a frame may still be on its way), and fails the test with the rows that
// differ when they do not within the deadline.
func sameScreens(t *testing.T, what string, a, b *terminal) {
	t.Helper()
	deadline := time.NewTimer(appWait)
	defer deadline.Stop()
	for {
		sa, sb := a.coloured(), b.coloured()
		if sa == sb {
			return
		}
		select {
		case <-a.changed:
		case <-b.changed:
		case <-deadline.C:
			var diff strings.Builder
			for _, d := range windowtest.DiffRows(sa, sb) {
				fmt.Fprintf(&diff, "row %d:\n  own:   %q\n  tcell: %q\n", d.Row, d.A, d.B)
			}
			t.Fatalf("after %s, the screen Sidekicks wrote differs from tcell's:\n%s\nown screen:\n%s\ntcell's:\n%s",
				what, diff.String(), a.screen(), b.screen())
		}
	}
}
