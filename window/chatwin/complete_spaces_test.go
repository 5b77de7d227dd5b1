package chatwin

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// TestCommandNamesWithASpace: gemini-cli's commands "memory list", "memory show" and
// "memory add <text>" are narrowed and completed past the space, in an agent's window and
// in a channel (member:command).
func TestCommandNamesWithASpace(t *testing.T) {
	cmds := []chat.Command{
		{Name: "memory list", Description: "List the memory"},
		{Name: "memory show"},
		{Name: "memory add", HasInput: true},
		{Name: "memo"},
		{Name: "help"},
	}
	named := make([]chat.Command, len(cmds))
	for i, c := range cmds {
		c.Name = "gemini:" + c.Name
		named[i] = c
	}
	for _, tc := range []struct {
		cmds   []chat.Command
		text   string
		cursor int // -1: the end
		want   string
		to     int
	}{
		{cmds, "/mem", -1, "/memory list|/memory show|/memory add|/memo", 4},
		{cmds, "/memory ", -1, "/memory list|/memory show|/memory add", 8},
		{cmds, "/memory l", -1, "/memory list", 9},
		{cmds, "/memory LI", -1, "/memory list", 10},
		{cmds, "/memory list", -1, "/memory list", 12},
		{cmds, "/memory list now", 9, "/memory list", 12},
		{cmds, "/memory list ", -1, "", 0},
		{cmds, "/memory x", -1, "", 0},
		{cmds, "/help me", -1, "", 0},
		{named, "/gemini:memory s", -1, "/gemini:memory show", 16},
		{named, "/memory a", -1, "/gemini:memory add", 9},
	} {
		cursor := tc.cursor
		if cursor < 0 {
			cursor = len(tc.text)
		}
		var c completion
		c.update(tc.text, cursor, 1, tc.cmds)
		var got []string
		for _, it := range c.items {
			got = append(got, it.word)
		}
		if strings.Join(got, "|") != tc.want || (tc.want != "" && c.to != tc.to) {
			t.Errorf("%q at %d: list %q to %d, want %q to %d", tc.text, cursor, got, c.to, tc.want, tc.to)
		}
	}
	// Completing takes the whole name, and the text then reads as the command.
	var c completion
	c.update("/memory l", 9, 1, cmds)
	if it := c.current(); it.insert != "/memory list" || !func() bool { c.update(it.insert, len(it.insert), 2, cmds); return c.exact(it.insert) }() {
		t.Errorf("completing /memory l gives %q, not read as the command", it.insert)
	}
}
