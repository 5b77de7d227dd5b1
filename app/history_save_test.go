package app

import (
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// The texts about saving the history have both languages, with the same verbs.
func TestSaveMessagesComplete(t *testing.T) {
	for _, p := range saveCatalogue.Problems(smsgNotSaved) {
		t.Error(p)
	}
}

// quickRetries makes the history writer try again within 100 ms.
func quickRetries(_ *appHarness, o *appOptions) {
	o.historyWriter = store.WriterOptions{RetryMin: 20 * time.Millisecond, RetryMax: 100 * time.Millisecond}
}

// echo sends "/echo text" in the focused agent window and waits for alice's turn to end.
func (h *appHarness) echo(text string) {
	h.t.Helper()
	h.typeText("/echo " + text)
	h.press(tcell.KeyEnter)
	h.waitWinRow(text)
	h.agentIdle(chat.AgentKey("alice"))
}

// saved waits until alice's conversation is written to the history.
func (h *appHarness) saved() {
	h.t.Helper()
	conv, ok := h.ap.agents.Service().Conversation(chat.AgentKey("alice"))
	if !ok {
		h.t.Fatal("alice's conversation is not open")
	}
	conv.Flush()
	if err := h.ap.agents.(*agentstack.Stack).FlushHistory(); err != nil {
		h.t.Fatal(err)
	}
}

// openAlice opens alice's window and waits for it.
func (h *appHarness) openAlice() {
	h.t.Helper()
	h.onUI(func() { h.ap.openAgent("alice") })
	h.waitTitles("A Alice")
}

// storedTexts returns the texts of alice's conversation in the history of the
// configuration at path, once no application holds it.
func storedTexts(t *testing.T, path string) []string {
	t.Helper()
	st := openStoreAt(t, path)
	defer st.Close()
	conv, err := st.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	page, err := st.LastPage(conv, 1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range page {
		out = append(out, e.Text)
	}
	return out
}

func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, s := range list {
			found = found || s == w
		}
		if !found {
			return false
		}
	}
	return true
}

// aliceOnFullDisk starts the application with its history on a small disk, has alice say
// "before the disk filled", waits for it to be written, then fills the disk. It returns
// the application, its configuration and folder, and the function that frees the disk.
func aliceOnFullDisk(t *testing.T) (h *appHarness, path, dir string, free func()) {
	dir = appEnv(t)
	disk := testagents.SmallDisk(t, "4m")
	t.Setenv(store.DataDirEnv, disk)
	path, _ = agentWinConfig(t, dir, "")
	h = startApp(t, path, dir, quickRetries)
	h.openAlice()
	h.echo("before the disk filled")
	h.saved()
	return h, path, dir, testagents.FillDisk(t, disk)
}

// The history on a disk that fills up while Sidekicks runs: alice's window and the
// status bar say that saving stopped and why, what is typed meanwhile is kept, and
// written once space is back ("saving resumed"); a restart shows it.
func TestHistoryDiskFullSaysSoAndResumes(t *testing.T) {
	h, path, dir, free := aliceOnFullDisk(t)
	h.echo("typed while the disk is full")
	h.waitText("History not saved: disk is full. What is said from here on is kept in memory",
		"History not saved: disk is full — ", "entries kept in memory, trying again")
	h.echo("typed later, still full")
	// Closed and opened again, the window shows what waits in memory.
	h.key(tcell.KeyCtrlW, 0, tcell.ModCtrl)
	h.waitTitles()
	h.openAlice()
	h.waitText("typed while the disk is full", "typed later, still full", "History not saved: disk is full. What")

	free()
	h.waitText("History saving resumed: what was kept in memory is written.")
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit after saving resumed: status %d, stderr %q", r.code, h.stderr.String())
	}
	if got := storedTexts(t, path); !containsAll(got, "/echo typed while the disk is full", "typed while the disk is full",
		"/echo typed later, still full", "typed later, still full") {
		t.Fatalf("the history after the disk was freed holds %q", got)
	}

	again := startApp(t, path, dir)
	again.openAlice()
	again.waitText("typed while the disk is full", "typed later, still full", "History saving resumed")
}

// Quitting while the disk is still full: the entries that could not be written are
// counted on the terminal, with why, and the exit status is ExitUnsaved.
func TestHistoryUnsavedAtQuit(t *testing.T) {
	h, path, _, free := aliceOnFullDisk(t)
	h.echo("lost at quit")
	h.waitText("History not saved: disk is full")
	conv, _ := h.ap.agents.Service().Conversation(chat.AgentKey("alice"))
	shown := conv.Snapshot()

	r := h.quit()
	if r.code != ExitUnsaved {
		t.Errorf("exit status %d, want %d", r.code, ExitUnsaved)
	}
	m := regexp.MustCompile(`sidekicks: (\d+) history entries were not saved \(disk is full\) and are lost; the history is (.*)\n`).FindStringSubmatch(h.stderr.String())
	if m == nil {
		t.Fatalf("stderr does not count the lost entries:\n%s", h.stderr.String())
	}
	free()
	stored := storedTexts(t, path)
	if n, _ := strconv.Atoi(m[1]); n != len(shown)-len(stored) || n < 3 {
		t.Errorf("stderr says %d entries lost; the window showed %d, the history holds %d", n, len(shown), len(stored))
	}
	if db, _ := store.DefaultPath(path); m[2] != db {
		t.Errorf("stderr names the history %q, want %q", m[2], db)
	}
	if containsAll(stored, "lost at quit") {
		t.Errorf("the history holds what was said while the disk was full: %q", stored)
	}
}

// An immutable database file: every write fails from the start; the window says why,
// and once the flag is removed, what was typed meanwhile is written.
func TestHistoryImmutableFile(t *testing.T) {
	dir := appEnv(t)
	path, _ := agentWinConfig(t, dir, "")
	first := startApp(t, path, dir)
	first.openAlice()
	first.echo("before")
	first.quit()
	db, err := store.DefaultPath(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatal(err)
	}
	undo := testagents.Immutable(t, db)

	h := startApp(t, path, dir, quickRetries)
	h.openAlice()
	h.echo("typed while immutable")
	h.waitText("History not saved: the file cannot be changed (immutable or append-only).")
	undo()
	h.waitText("History saving resumed")
	if r := h.quit(); r.code != 0 {
		t.Fatalf("status %d, stderr %q", r.code, h.stderr.String())
	}
	if got := storedTexts(t, path); !containsAll(got, "/echo typed while immutable", "typed while immutable") {
		t.Fatalf("the history holds %q", got)
	}
}
