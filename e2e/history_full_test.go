package e2e

import (
	"regexp"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// The history on a disk that fills up while the real binary runs: the screen says that
// saving stopped and why; quitting then says on the terminal, once the screen is
// restored, how many entries were lost, and the exit status is 3.
func TestHistoryDiskFullInTerminal(t *testing.T) {
	disk := testagents.SmallDisk(t, "4m")
	t.Setenv(store.DataDirEnv, disk)
	env := append(isolate(t), store.DataDirEnv+"="+disk)
	dir := t.TempDir()
	path := testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "demo", t.TempDir(), t.TempDir(), ""))
	db := historyOf(t, path)

	term := startTerminal(t, env, dir, 160, 40, binary, "--config", path)
	term.waitFor("No window open", appWait)
	sayHi(t, term, "demo")
	waitSaved(t, db, "the message before the disk filled",
		`SELECT count(*) FROM entries WHERE kind = 'user' AND text = 'hi'`)

	testagents.FillDisk(t, disk)
	term.typeText("/echo typed on a full disk")
	term.keys("Enter")
	term.waitFor("History not saved: disk is full. What is said from here on is kept in memory", appWait)

	term.keys("M-x")
	code := term.waitExit(appWait)
	// What the terminal shows, wrapped lines joined, with what scrolled off the top.
	shown := term.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "0")
	if code != 3 {
		t.Errorf("exit status %d, want 3; the terminal shows:\n%s", code, shown)
	}
	if !regexp.MustCompile(`(?m)^sidekicks: [1-9][0-9]* history entries were not saved \(disk is full\) and are lost; the history is ` +
		regexp.QuoteMeta(db) + `$`).MatchString(shown) {
		t.Errorf("the terminal does not count the entries lost:\n%s", shown)
	}
}
