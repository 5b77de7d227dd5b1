package runtime

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// logProblem is what LogsOptions.Problem was told.
type logProblem struct {
	agent, path string
	err         error
}

// An agent's log on a disk that fills up: Problem is told once with the system's error,
// the log's memory says so and keeps the lines; once space is back, Problem hears that the
// file is written again, and the file says how many lines it misses.
func TestLogFileOnFullDisk(t *testing.T) {
	disk := testagents.SmallDisk(t, "1m")
	problems := make(chan logProblem, 10)
	logs := NewLogs(LogsOptions{Dir: disk, Problem: func(agent, path string, err error) {
		problems <- logProblem{agent, path, err}
	}})
	log := logs.Agent("alice")
	free := testagents.FillDisk(t, disk)
	for i := range 5 {
		log.Printf("line %d while full", i)
		log.Flush()
	}
	var p logProblem
	select {
	case p = <-problems:
	case <-time.After(5 * time.Second):
		t.Fatal("Problem was not told")
	}
	if p.agent != "alice" || p.path != log.Path() || !errors.Is(p.err, syscall.ENOSPC) {
		t.Errorf("Problem(%q, %q, %v)", p.agent, p.path, p.err)
	}
	select {
	case p := <-problems:
		t.Errorf("Problem told again while still failing: %+v", p)
	default:
	}
	var memory []string
	for _, l := range log.Lines() {
		memory = append(memory, l.Text)
	}
	joined := strings.Join(memory, "\n")
	if !strings.Contains(joined, "sidekicks: cannot write "+log.Path()) || !strings.Contains(joined, "line 4 while full") {
		t.Errorf("the log's memory:\n%s", joined)
	}

	free()
	log.Printf("after the disk was freed")
	log.Flush()
	select {
	case p := <-problems:
		if p.err != nil {
			t.Errorf("after the disk was freed, Problem(%v)", p.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Problem was not told that the file is written again")
	}
	data, err := os.ReadFile(filepath.Join(disk, "agents", "alice.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "after the disk was freed\n") ||
		!strings.Contains(string(data), "sidekicks: 5 lines before this one are missing: the file could not be written") {
		t.Errorf("the file once written again:\n%s", data)
	}
}
