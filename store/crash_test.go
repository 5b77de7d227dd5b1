package store

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// crashText is the text a crash writer's entry id has after its step k (1 to 4): up to a
// kilobyte, so that a batch spans a few pages.
func crashText(id int64, k int) string {
	return strings.Repeat(fmt.Sprintf("entry %d step %d. ", id, k), 10*k)
}

// crashWriter writes entries to the store at path for ever, as fast as it can, and prints
// "<id> <kind>" on stdout for each entry once it is committed: "w" for an entry streamed
// through a Writer in four saves (its text is crashText(id, 4)), "d" for an entry saved
// directly (its text is "direct <id>").
func crashWriter(path string) int {
	s, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 1
	}
	conv, err := s.AgentConversation("alice")
	if err != nil {
		fmt.Fprintln(os.Stderr, "conversation:", err)
		return 1
	}
	w := NewWriter(s)
	out := bufio.NewWriter(os.Stdout)
	for {
		now := time.Now()
		e := chat.Entry{Kind: chat.KindAgent, Author: "alice", Created: now, Updated: now}
		id := w.Save(conv, e)
		e.ID = id
		for k := 1; k <= 4; k++ {
			e.Text, e.Done = crashText(id, k), k == 4
			w.Save(conv, e)
		}
		// The direct entry's id comes after the streamed one's: the text is set once known.
		d := chat.Entry{Kind: chat.KindUser, Created: now, Updated: now, Done: true}
		did, err := s.SaveEntry(conv, d)
		if err == nil {
			d.ID, d.Text = did, fmt.Sprintf("direct %d", did)
			_, err = s.SaveEntry(conv, d)
		}
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "write:", err)
			return 1
		}
		fmt.Fprintf(out, "%d w\n%d d\n", id, did)
		out.Flush()
	}
}

// TestCrash kills a writer process at random moments, many times, and checks after each
// kill that the database is sound and holds every entry reported committed.
func TestCrash(t *testing.T) {
	rounds := 30
	if testing.Short() {
		rounds = 8
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	committed := map[int64]string{} // id -> kind, over every round
	for round := range rounds {
		want := 2 + rand.IntN(12) // lines to wait for before the kill
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"=crash-writer", helperDBEnv+"="+path)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		lines := 0
		killed := false
		for sc.Scan() {
			if err := addCommitted(committed, sc.Text()); err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			lines++
			if lines == want && !killed {
				// Lines printed before the kill are read on: each was committed.
				cmd.Process.Kill()
				killed = true
			}
		}
		cmd.Wait()
		if !killed {
			t.Fatalf("round %d: the writer ended after %d lines: %s", round, lines, stderr.String())
		}
		checkAfterCrash(t, path, round, committed, round%10 == 9 || round == rounds-1)
	}
	t.Logf("%d rounds, %d entries committed", rounds, len(committed))
}

// addCommitted records one "<id> <kind>" line of a crash writer.
func addCommitted(committed map[int64]string, line string) error {
	idText, kind, ok := strings.Cut(line, " ")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !ok || err != nil || (kind != "w" && kind != "d") {
		return fmt.Errorf("bad line from the writer: %q", line)
	}
	committed[id] = kind
	return nil
}

// checkAfterCrash opens the database left by a killed writer and checks it; fullCheck checks
// the search index too, which takes longer.
func checkAfterCrash(t *testing.T, path string, round int, committed map[int64]string, fullCheck bool) {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatalf("round %d: opening after the kill: %v", round, err)
	}
	defer s.Close()
	var check string
	if err := s.db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("round %d: integrity_check = %q, %v", round, check, err)
	}
	if fullCheck {
		checkIndex(t, s)
	}
	type stored struct {
		text string
		done bool
	}
	found := map[int64]stored{}
	rows, err := s.db.Query(`SELECT id, text, done FROM entries`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var e stored
		if err := rows.Scan(&id, &e.text, &e.done); err != nil {
			t.Fatal(err)
		}
		found[id] = e
	}
	if err := closeRows(rows); err != nil {
		t.Fatal(err)
	}
	for id, kind := range committed {
		e, ok := found[id]
		if !ok {
			t.Fatalf("round %d: entry %d (%s) reported committed is missing", round, id, kind)
		}
		want := fmt.Sprintf("direct %d", id)
		if kind == "w" {
			want = crashText(id, 4)
		}
		if e.text != want || !e.done {
			t.Fatalf("round %d: entry %d (%s) = %.40q done=%v, want %.40q done", round, id, kind, e.text, e.done, want)
		}
	}
}
