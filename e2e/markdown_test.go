package e2e

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// An agent's answer in Markdown is drawn, not shown as written: no heading marks, no
// asterisks or backticks, no table delimiter row, and the table in box characters.
func TestMarkdownAnswerInTerminal(t *testing.T) {
	env := isolate(t)
	dir := t.TempDir()
	cfg := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "writer", "markdown", t.TempDir()))

	term := startTerminal(t, env, dir, 100, 40, binary, "--config", cfg)
	term.waitFor("No window open", appWait)
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "writer")
	term.typeText("explain")
	term.keys("Enter")
	s := term.waitFor("second point", appWait)
	conv := strings.Join(windowRows(s), "\n")
	for _, raw := range []string{"# Summary", "**", "`asyncio`", "|---|", "| language |", "- first point"} {
		if strings.Contains(conv, raw) {
			t.Errorf("the answer shows %q as written:\n%s", raw, s)
		}
	}
	for _, drawn := range []string{"Summary", "The Python version uses asyncio for the loop.",
		"┌──────────┬──────────────┐", "language", "├──────────┼──────────────┤", "CPython 3.13",
		"└──────────┴──────────────┘", "• first point", "• second point"} {
		if !strings.Contains(s, drawn) {
			t.Errorf("the answer does not show %q:\n%s", drawn, s)
		}
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
}
