package e2e

import "testing"

// In the real binary, Agent ▸ Sessions… marks the session open in the window; taking it
// changes nothing and says so, and the window's session goes on: its title stays on the
// frame and the next message is answered in it.
func TestSessionOpenHereInTerminal(t *testing.T) {
	term := startGem(t, "sessions", 40)
	term.typeText("title First steps")
	term.keys("Enter")
	term.waitFor("gem — First steps", appWait)
	openSessions(term)
	term.typeText("Write")
	term.keys("Enter")
	term.waitFor("gem — Write the docs", appWait)

	openSessions(term)
	term.waitFor("(open here)", appWait)
	term.typeText("Write")
	term.keys("Enter")
	term.waitFor("The session “Write the docs” is already the one open in this window", appWait)
	term.typeText("heard")
	term.keys("Enter")
	term.waitFor("heard: resumed past-2, closed sessions-1", appWait)
	term.waitFor("gem — Write the docs", appWait)
}
