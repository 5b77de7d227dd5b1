package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// An agent's error on screen says what the agent said of it (its JSON-RPC error's data,
// cleaned) and where to look next; an agent speaking another protocol version is
// reported as such, not as the exit that follows Sidekicks giving up on it.
func TestErrorsSayWhyInTerminal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sidekicks.yaml")
	cfg := "version: 1\nagents:\n" + testagents.ModeEntry(t, "up", "rpcerror", dir) + testagents.ModeEntry(t, "v2", "version2", dir)
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	term := startTerminal(t, isolate(t), dir, 120, 40, binary, "--config", path)
	term.waitFor("No window open", appWait)

	// up: its error's data reaches the conversation, its escape sequences do not.
	sayHi(t, term, "up")
	term.waitFor("details: "+testagents.RPCErrorDetails, appWait)
	screen := term.waitFor("see its log: Agents panel ▸ l", appWait)
	if !strings.Contains(screen, "hint: retry later") || strings.Contains(screen, "[31m") {
		t.Errorf("the data's hint is not shown clean:\n%s", screen)
	}
	if pane := term.coloured(); strings.Contains(pane, "\x1b[31mretry") {
		t.Errorf("the agent's escape sequence reached the terminal:\n%s", pane)
	}

	// v2: reported as speaking another version, in its conversation.
	sayHi(t, term, "v2", "Down")
	screen = term.waitFor(`v2: error: agent "v2" speaks ACP protocol version 2;`, appWait)
	if strings.Contains(screen, "ended by itself") || strings.Contains(screen, "exit status 0") {
		t.Errorf("the exit is blamed:\n%s", screen)
	}
	term.waitFor("Sidekicks speaks version 1", appWait)
}

// sayHi opens an agent's window from the Agent menu (its entry reached with the keys
// given, the first one without) and sends it "hi".
func sayHi(t *testing.T, term *terminal, agent string, keys ...string) {
	t.Helper()
	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys(append(keys, "Enter")...)
	waitFocus(t, term, agent)
	term.typeText("hi")
	term.keys("Enter")
}
