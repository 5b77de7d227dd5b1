package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
)

// archiveEntries is how many entries the test's #archive channel holds: more than two
// pages of history (chat.DefaultPageSize), so that its oldest entries are not loaded when
// its window opens.
const archiveEntries = 2*chat.DefaultPageSize + 50

// fillArchive writes, in the history of the configuration at cfg, a channel #archive whose
// conversation has archiveEntries entries (fillChannel).
func fillArchive(t *testing.T, cfg string) {
	t.Helper()
	fillChannel(t, cfg, "archive", "old talk", archiveEntries)
}

// fillChannel writes, in the history of the configuration at cfg, a channel whose
// conversation has n entries, the user's and alice's in turn; the second one holds the word
// "zanzibar", said nowhere else.
func fillChannel(t *testing.T, cfg, name, description string, n int) {
	t.Helper()
	st, err := store.OpenConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ch, err := st.CreateChannel(name, description)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := st.ChannelConversation(ch.ID)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.Local)
	for i := 0; i < n; i++ {
		e := chat.Entry{Kind: chat.KindUser, Text: fmt.Sprintf("question number %d", i), Created: at, Updated: at, Done: true}
		if i%2 == 1 {
			e.Kind, e.Author, e.Text = chat.KindAgent, "alice", fmt.Sprintf("answer number %d\n\n```go\nfmt.Println(%d)\n```", i, i)
		}
		if i == 1 {
			e.Text = "The old port of zanzibar is the answer."
		}
		if _, err := st.SaveEntry(conv, e); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Minute)
	}
}

// Sidekicks ▸ Search history finds a word said in another channel, long ago, and opens that
// channel's window at it; Sidekicks ▸ Export conversation writes that channel's whole
// history to a Markdown file chosen in the file chooser.
func TestSearchAndExportInTerminal(t *testing.T) {
	env := historyEnv(t)
	dir := t.TempDir()
	cfg := channelConfig(t, dir)
	fillArchive(t, cfg)

	term := startTerminal(t, env, dir, 120, 40, binary, "--config", cfg)
	waitFocus(t, term, "#général")
	term.waitFor("Both demo agents", appWait)
	// A word said now, in #général: its entry is in the history, and in the open window
	// without its store id.
	term.typeText("@alice remember the wombat")
	term.keys("Enter")
	term.waitFor("I am Alice, a demo agent", appWait)
	waitUntil(t, term, "alice's turn over", idle)

	term.keys("M-s")
	term.waitFor("Search history…", appWait)
	term.keys("s")
	term.waitFor("Type words to find them in every conversation.", appWait)
	term.typeText("zanzi")
	s := term.waitFor("1 found, newest first.", appWait)
	if !strings.Contains(s, "║  #archive  2026-03-01 09:01  Alice  ") || !strings.Contains(s, "║    The old port of zanzibar is the answer.  ") {
		t.Fatalf("the hit does not say where, when, who and what:\n%s", s)
	}
	term.keys("Enter")
	waitFocus(t, term, "#archive")
	s = term.waitFor("The old port of zanzibar is the answer.", appWait)
	// The window opened on the last page; the entry, two pages back, is loaded and shown.
	if strings.Contains(s, "Search history") || !strings.Contains(s, "║  question number 2  ") {
		t.Fatalf("the entry is not shown in the #archive window:\n%s", s)
	}

	term.keys("M-s")
	term.waitFor("Export conversation…", appWait)
	term.keys("x")
	name := "archive-" + time.Now().Format("2006-01-02") + ".md"
	term.waitFor("Export the conversation to Markdown", appWait)
	term.waitFor(name, appWait)
	term.keys("Enter")
	path := filepath.Join(dir, name)
	term.waitFor(fmt.Sprintf("%d entries exported to", archiveEntries), appWait)

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	if !strings.HasPrefix(md, "# #archive\n") {
		t.Errorf("the export does not start with the channel's title:\n%.300s", md)
	}
	if n := strings.Count(md, "\n## "); n != archiveEntries {
		t.Errorf("the export has %d entries, want %d", n, archiveEntries)
	}
	for _, want := range []string{
		"\n## You · 2026-03-01 09:00:00\n\nquestion number 0\n",
		"\n## Alice · 2026-03-01 09:01:00\n\nThe old port of zanzibar is the answer.\n",
		fmt.Sprintf("\n## Alice · %s\n\nanswer number %d\n\n```go\nfmt.Println(%d)\n```\n",
			time.Date(2026, 3, 1, 9, 0, 0, 0, time.Local).Add(time.Duration(archiveEntries-1)*time.Minute).Format("2006-01-02 15:04:05"),
			archiveEntries-1, archiveEntries-1),
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the export lacks %q", want)
		}
	}
	if info, err := os.Stat(path); err == nil && info.Mode().Perm() != 0o600 {
		t.Errorf("the export's mode is %v, want 0600", info.Mode().Perm())
	}

	// From #archive, the word said in #général: its window comes to the front at it, the
	// conversation's cursor on it.
	term.keys("M-s")
	term.waitFor("Search history…", appWait)
	term.keys("s")
	term.typeText("wombat")
	term.waitFor("2 found, newest first.", appWait)
	term.keys("Down", "Enter")
	waitFocus(t, term, "#général")
	s = term.waitFor("Tab Input", appWait)
	if strings.Contains(s, "no longer in the history") || !strings.Contains(s, "@alice remember the wombat") {
		t.Fatalf("the entry in #général was not shown:\n%s", s)
	}

	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d, want 0; the screen shows:\n%s", code, term.screen())
	}
}
