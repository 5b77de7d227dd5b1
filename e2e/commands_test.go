package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// blocksConfig writes a configuration with alice, the blocks agent (she replies with the
// blocks of each prompt, one JSON line each), working in a workspace that holds notes.txt,
// and bob, a demo agent, both in the channel #général. It returns the configuration's path
// and alice's workspace.
func blocksConfig(t *testing.T, dir string) (path, workspace string) {
	t.Helper()
	workspace = t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "notes.txt"), []byte("the notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := "version: 1\nagents:\n" + testagents.ModeEntry(t, "alice", testagents.BlocksMode, workspace) +
		fmt.Sprintf("  - name: bob\n    title: Bob\n    icon: B\n    command: %q\n    args: [demo-agent, --name, Bob, --delay, \"0\"]\n", binary) +
		"channels:\n  - name: général\n    agents: [alice, bob]\n"
	path = filepath.Join(dir, "sidekicks.yaml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, workspace
}

// startBlocks starts sidekicks on blocksConfig, the channel in front, and returns alice's
// workspace.
func startBlocks(t *testing.T) (*terminal, string) {
	t.Helper()
	dir := t.TempDir()
	cfg, workspace := blocksConfig(t, dir)
	term := startTerminal(t, isolate(t), dir, 160, 60, binary, "--config", cfg)
	waitFocus(t, term, "#général")
	return term, workspace
}

// block is a block as the blocks agent shows it.
func block(typ, text, uri string) string {
	b := fmt.Sprintf(`{"type":%q`, typ)
	if text != "" {
		b += fmt.Sprintf(`,"text":%q`, text)
	}
	if uri != "" {
		b += fmt.Sprintf(`,"uri":%q`, uri)
	}
	return b + "}"
}

// sendAndWait types text, sends it, and waits until the channel's turns are over.
func sendAndWait(t *testing.T, term *terminal, text string) {
	t.Helper()
	term.typeText(text)
	term.keys("Enter")
	waitRow(t, term, text)
	waitUntil(t, term, "the turn over after "+text, idle)
}

// TestCommandsInTerminal: /alice:ping in a channel reaches alice as a command (the first
// and only block of her prompt is "/ping", the catch-up waits for her next message), and
// a file mentioned in a /command line, completed from alice's workspace, is attached after
// it.
func TestCommandsInTerminal(t *testing.T) {
	term, workspace := startBlocks(t)

	// Something alice misses.
	sendAndWait(t, term, "@bob hello")
	term.waitFor("I am Bob, a demo agent", appWait)

	// The command is the prompt's first and only block.
	sendAndWait(t, term, "/alice:ping")
	waitRow(t, term, block("text", "/ping", ""))
	if s := term.screen(); strings.Contains(s, "Catch-up:") {
		t.Fatalf("alice's command came with a catch-up:\n%s", s)
	}

	// Her next message brings the catch-up, first.
	sendAndWait(t, term, "@alice what did I miss?")
	term.waitFor(`{"type":"text","text":"Catch-up: what was said in this channel`, appWait)
	waitRow(t, term, block("text", "@alice what did I miss?", ""))

	// In a command line, @ lists the files of the agent it is for; the file is attached
	// after the command's text.
	term.typeText("/alice:ping @no")
	waitRow(t, term, "notes.txt")
	term.keys("Tab")
	term.keys("Enter")
	waitRow(t, term, "/alice:ping @notes.txt")
	waitUntil(t, term, "the turn over", idle)
	waitRow(t, term, block("text", "/ping @notes.txt ", "")) // the completion's space
	term.waitFor(block("resource", "the notes\n", "file://"+filepath.Join(workspace, "notes.txt")), appWait)

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}

// TestBackspaceDeletesAGraphemeInTerminal: typed key by key, a ZWJ emoji is one cluster,
// and Backspace deletes it whole.
func TestBackspaceDeletesAGraphemeInTerminal(t *testing.T) {
	term, _ := startBlocks(t)
	term.typeText("/alice:ping a👩‍💻")
	term.keys("BSpace")
	term.typeText("b")
	term.keys("Enter")
	waitRow(t, term, "/alice:ping ab")
	waitRow(t, term, block("text", "/ping ab", ""))

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}
