package app

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// A real agent's tool calls show what they do: the execute call's command from its raw
// input, sanitized, on one line, cut with "…"; the edit's file and line, and its diff; a
// tool_call_update for an id never announced makes a call; the calls the turn left pending
// or in progress read "not finished".
func TestToolCallsShowWhatTheyDo(t *testing.T) {
	dir := appEnv(t)
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	ws := t.TempDir()
	path := testagents.WriteConfig(t, dir, 4, testagents.ModeEntry(t, "toolbot", "tools", ws))
	h := startApp(t, path, dir)
	h.promptAgent("toolbot", "go")
	h.waitText("tools done")
	h.agentIdle(chat.AgentKey("toolbot"))

	for _, row := range []string{
		"⚙ Run the build — execute, not finished",
		"⚙ Modifying critical configuration file — edit, completed",
		"→ " + filepath.Join(ws, testagents.ToolsFile) + ":12",
		`-{"port": 80}`,
		`+{"port": 8080}`,
		"⚙ Ghost call — not finished",
	} {
		h.waitWinRow(row)
	}
	screen := h.waitText("$ echo red rm -rf build && xxxx")
	rows := agentWinRows(screen)
	var command []string // the command's rows, from "$ " to the one that ends it
	for i, r := range rows {
		if strings.HasPrefix(r, "$ echo") {
			for _, c := range rows[i:] {
				command = append(command, c)
				if !strings.HasPrefix(c, "$") && !strings.HasPrefix(c, "x") || strings.HasSuffix(c, "…") {
					break
				}
			}
			break
		}
	}
	if len(command) == 0 || !strings.HasSuffix(command[len(command)-1], "x…") {
		t.Errorf("the command's rows %q do not end with the cut", command)
	}
	if n := len(strings.Join(command, "")); n > chat.MaxCommandText+len("$ ") {
		t.Errorf("the command takes %d bytes on screen, more than %d", n, chat.MaxCommandText)
	}
	for _, hidden := range []string{"THE-END", "pwned", "SGVsbG8", "[31m", "\x1b"} {
		if strings.Contains(screen, hidden) {
			t.Errorf("the screen shows %q:\n%s", hidden, screen)
		}
	}
}

// The Go SDK's example agent asks permission for an edit whose title says nothing of the
// file: the conversation shows the file, and once the request is cancelled, the call the
// turn left pending reads "not finished".
func TestSDKExampleAgentToolCallShowsItsFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the SDK's example agent")
	}
	bin := testagents.SDKExampleAgent(t)
	dir := appEnv(t)
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n  - name: sdk\n    command: "+bin+"\n    workspace: "+t.TempDir()+"\n")
	h := startApp(t, path, dir)
	h.promptAgent("sdk", "hello")
	h.waitWinRow("⚙ Reading project files — read, completed")
	h.waitWinRow("→ /project/README.md")
	// The permission request tells where the file really is; the call shows it.
	h.waitWinRow("⚙ Modifying critical configuration file — edit, pending")
	h.waitWinRow("→ /home/user/project/config.json")
	h.press(tcell.KeyEscape)
	h.agentIdle(chat.AgentKey("sdk"))
	h.waitWinRow("⚙ Modifying critical configuration file — edit, not finished")
}

// promptAgent opens the window of an agent that has no title nor icon, and sends text.
func (h *appHarness) promptAgent(name, text string) {
	h.t.Helper()
	h.onUI(func() { h.ap.openAgent(name) })
	h.waitTitles(name)
	h.typeText(text)
	h.press(tcell.KeyEnter)
}
