package e2e

import (
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite" // reads the history the binary writes

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// historyEnv is isolate's environment with the history in a folder of the test's, also set
// in the test's own environment so that store.DefaultPath finds the binary's history.
func historyEnv(t *testing.T) []string {
	t.Helper()
	data := t.TempDir()
	t.Setenv(store.DataDirEnv, data)
	return append(isolate(t), store.DataDirEnv+"="+data)
}

// midstreamConfig writes, in a folder of dir, a configuration of two agents whose turns
// never end: alice starts a reply (testagents.MidstreamText), bob says nothing; extra is
// added at the end (ui settings).
func midstreamConfig(t *testing.T, dir, extra string) string {
	t.Helper()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	path := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "alice", "midstream", ws),
		testagents.ModeEntry(t, "bob", "silent", ws))
	if extra != "" {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(extra)
		f.Close()
	}
	return path
}

// historyOf returns the history database of the configuration at path.
func historyOf(t *testing.T, path string) string {
	t.Helper()
	db, err := store.DefaultPath(path)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// The same configuration reached through a linked folder is the same configuration: one
// history, and a second Sidekicks on it is refused.
func TestLinkedFolderOneInstanceInTerminal(t *testing.T) {
	env := historyEnv(t)
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	path := midstreamConfig(t, real, "")
	if err := os.Symlink(real, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "link", filepath.Base(path))
	term := startTerminal(t, env, dir, 100, 30, binary, "--config", linked)
	term.waitFor("No window open", appWait)

	second := runBinary(t, env, dir, appWait, "--config", path)
	if second.code == 0 || !strings.Contains(second.stderr, "is in use by another Sidekicks (process") {
		t.Fatalf("a second Sidekicks through the real folder: status %d, stderr:\n%s", second.code, second.stderr)
	}
	dbs, _ := filepath.Glob(filepath.Join(os.Getenv(store.DataDirEnv), "history", "*.db"))
	if len(dbs) != 1 || dbs[0] != historyOf(t, path) {
		t.Errorf("histories %q, want the one of the resolved path %s", dbs, historyOf(t, path))
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Errorf("quit: status %d", code)
	}
}

// waitSaved waits until query, on the history db, counts one row: what the binary wrote
// before it is killed.
func waitSaved(t *testing.T, db, what, query string, args ...any) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro&_pragma=busy_timeout(1000)")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(appWait)
	for {
		var n int
		err := conn.QueryRow(query, args...).Scan(&n)
		if err == nil && n == 1 {
			return
		}
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s never reached the history %s (last error %v)", what, db, err)
		}
	}
}

// A turn cut by a SIGKILL of Sidekicks shows as interrupted after a restart, in the user's
// language: alice's reply, cut mid-stream, ends with a line that says so (every time it is
// shown); bob, who had said nothing yet, gets a notice (once).
func TestKilledTurnsShowInterruptedInTerminal(t *testing.T) {
	env := historyEnv(t)
	dir := t.TempDir()
	path := midstreamConfig(t, dir, "")
	db := historyOf(t, path)
	term := startTerminal(t, env, dir, 160, 40, binary, "--config", path)
	term.waitFor("No window open", appWait)
	sayHi(t, term, "alice")
	term.waitFor(testagents.MidstreamText, appWait)
	sayHi(t, term, "bob", "Down")
	waitSaved(t, db, "alice's reply, still streaming",
		`SELECT count(*) FROM entries WHERE kind = 'agent' AND done = 0 AND text = ?`, testagents.MidstreamText)
	waitSaved(t, db, "bob's open turn", `SELECT count(*) FROM open_turns WHERE agent = 'bob'`)

	lock, err := os.ReadFile(db + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(lock)))
	if err != nil {
		t.Fatalf("lock file %q: %v", lock, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if code := term.waitExit(appWait); code != 128+int(syscall.SIGKILL) {
		t.Fatalf("status after SIGKILL: %d", code)
	}

	cut := map[i18n.Lang]string{
		i18n.English: "… interrupted: Sidekicks stopped before this was finished",
		i18n.French:  "… interrompu : Sidekicks s'est arrêté avant la fin",
	}
	const notice = "bob : tour interrompu : Sidekicks s'est arrêté avant sa fin"
	// In French first: the windows are opened from the menu.
	midstreamConfig(t, dir, "ui:\n  language: fr\n")
	term = startTerminal(t, env, dir, 160, 40, binary, "--config", path)
	term.waitFor("Alt-X", appWait)
	for _, keys := range [][]string{nil, {"Down"}} {
		term.keys("M-a")
		term.waitFor("État des agents", appWait)
		term.keys(append(keys, "Enter")...)
	}
	waitFocus(t, term, "bob")
	term.waitFor(notice, appWait)
	screen := term.waitFor(cut[i18n.French], appWait)
	if !strings.Contains(screen, testagents.MidstreamText) || strings.Contains(screen, "alice : tour interrompu") {
		t.Errorf("alice's cut reply is not shown, or is told twice:\n%s", screen)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("quit: status %d", code)
	}

	// In English, the windows saved at quit come back: the cut reply is still marked, in
	// this language; bob's notice, told once, stays as it was written.
	midstreamConfig(t, dir, "")
	term = startTerminal(t, env, dir, 160, 40, binary, "--config", path)
	screen = term.waitFor(cut[i18n.English], appWait)
	screen = term.waitFor(notice, appWait)
	if n := strings.Count(screen, "tour interrompu") + strings.Count(screen, "turn interrupted"); n != 1 {
		t.Errorf("bob's interrupted turn is told %d times:\n%s", n, screen)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("quit: status %d", code)
	}
}

// truncatedHistoryOf writes a history of a few pages for the configuration at path, then
// cuts the file in half, and returns the file's path and what it holds.
func truncatedHistoryOf(t *testing.T, path string) (string, []byte) {
	t.Helper()
	db := historyOf(t, path)
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	conv, err := s.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	w := store.NewWriter(s)
	for range 100 {
		w.Save(conv, chat.Entry{Kind: chat.KindUser, Text: strings.Repeat("lost words ", 100), Done: true})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
	damaged, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	return db, damaged
}

// A truncated history stops nothing silently: the screen offers a new history, the
// damaged file kept; refusing prints what to do; accepting starts with a new history.
func TestDamagedHistoryOfferInTerminal(t *testing.T) {
	env := historyEnv(t)
	dir := t.TempDir()
	path := midstreamConfig(t, dir, "")
	db, damaged := truncatedHistoryOf(t, path)

	// Refused (Esc): the program stops, saying what to do, the file untouched.
	term := startTerminal(t, env, dir, 120, 40, binary, "--config", path)
	term.waitFor("Damaged history", appWait)
	screen := term.waitFor("Start with a new history", appWait)
	if !strings.Contains(screen, "(database disk image is malformed)") {
		t.Errorf("the dialog does not say what SQLite found:\n%s", screen)
	}
	term.keys("Escape")
	if code := term.waitExit(appWait); code != 1 {
		t.Errorf("refused: status %d, want 1", code)
	}
	screen = term.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "0") // wrapped lines joined, with what scrolled off
	for _, want := range []string{db + " is damaged (database disk image is malformed)", "sqlite3 MOVED-FILE .recover", "accept its offer", "move the file aside"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the message printed lacks %q:\n%q", want, screen)
		}
	}
	if now, _ := os.ReadFile(db); string(now) != string(damaged) {
		t.Error("refusing changed the damaged file")
	}

	// In French, accepted (its option's digit): a new history, the damaged file kept.
	midstreamConfig(t, dir, "ui:\n  language: fr\n")
	term = startTerminal(t, env, dir, 120, 40, binary, "--config", path)
	term.waitFor("Historique endommagé", appWait)
	term.waitFor("Repartir d'un historique neuf", appWait)
	term.keys("1")
	term.waitFor("Aucune fenêtre", appWait)
	kept, _ := filepath.Glob(db + ".damaged-*")
	if len(kept) != 1 {
		t.Fatalf("damaged files kept: %q, want one", kept)
	}
	if b, _ := os.ReadFile(kept[0]); string(b) != string(damaged) {
		t.Error("the damaged file was not kept whole")
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("quit: status %d", code)
	}
	s, err := store.Open(db)
	if err != nil {
		t.Fatalf("the new history: %v", err)
	}
	defer s.Close()
	conv, err := s.AgentConversation("alice")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := s.Count(conv); err != nil || n != 0 {
		t.Errorf("the new history holds %d entries of alice, %v", n, err)
	}
}
