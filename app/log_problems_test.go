package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// The texts about the log folder have both languages, with the same verbs.
func TestLogProblemMessagesComplete(t *testing.T) {
	for _, p := range logCatalogue.Problems(lmsgAgentLogFailed) {
		t.Error(p)
	}
}

// The log folder on a disk that fills up: the status bar says when an agent's log and
// Sidekicks' own cannot be written, and when Sidekicks' is again.
func TestLogFolderOnFullDisk(t *testing.T) {
	dir := appEnv(t)
	disk := testagents.SmallDisk(t, "1m")
	state := t.TempDir()
	if err := os.Symlink(disk, filepath.Join(state, "logs")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SIDEKICKS_STATE_DIR", state)
	path, _ := agentWinConfig(t, dir, "")
	h := startApp(t, path, dir)
	free := testagents.FillDisk(t, disk)

	h.openAlice() // alice starts: her log has lines
	agentLog := filepath.Join(state, "logs", "agents", "alice.log")
	h.waitText("The log of alice is not written to " + agentLog + ": disk is full")

	// Sidekicks' own log fills what was left of its last page, then fails.
	for range 200 {
		h.ap.log.Printf("%s", strings.Repeat("filler ", 20))
	}
	h.waitText("Sidekicks' log is not written to " + filepath.Join(state, "logs", "sidekicks.log") + ": disk is full")
	free()
	h.ap.log.Printf("after the disk was freed")
	h.waitText("Sidekicks' log is written again")
	h.ap.log.Flush()
	data, err := os.ReadFile(filepath.Join(state, "logs", "sidekicks.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "records missing before this one: the file could not be written") {
		t.Errorf("Sidekicks' log does not say what it misses:\n%s", data)
	}
}
