package app

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAppLogWritesRecordsWithTheirTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "logs", "sidekicks.log")
	l, err := openAppLog(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	l.now = func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }
	l.Printf("starting on %s", "/c.yaml")
	l.Printf("an agent said \x1b]0;owned\a%s", "hi\n")
	l.Flush()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "2025-01-02T03:04:05Z starting on /c.yaml\n2025-01-02T03:04:05Z an agent said hi\n"
	if string(data) != want {
		t.Errorf("log:\n%q\nwant\n%q", data, want)
	}
	l.Close()
	l.Printf("after close") // dropped, no panic
	l.Flush()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode: %v, %v", fi, err)
	}
	var none *appLog
	none.Printf("nothing")
	none.Flush()
	none.Close()
	if none.Path() != "" {
		t.Error("a nil log has a path")
	}
}

func TestAppLogLeftReadableBecomesPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sidekicks.log")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := openAppLog(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("log file mode %04o; want 0600", got)
	}
}

func TestAppLogRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sidekicks.log")
	if err := os.WriteFile(path, []byte(strings.Repeat("old\n", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	// Already too big at open: it becomes .1.
	l, err := openAppLog(path, 200)
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path + ".1"); !strings.HasPrefix(string(data), "old\n") {
		t.Errorf("the old log was not kept as .1: %q", data)
	}
	// Growing past the size while writing rotates again.
	for i := 0; i < 10; i++ {
		l.Printf("record %d %s", i, strings.Repeat("x", 30))
	}
	l.Close()
	cur, _ := os.ReadFile(path)
	prev, _ := os.ReadFile(path + ".1")
	if len(cur) > 200 || !strings.Contains(string(cur), "record 9") {
		t.Errorf("current log (%d bytes): %q", len(cur), cur)
	}
	if !strings.HasPrefix(string(prev), "20") || strings.Contains(string(prev), "old\n") || len(prev) > 200 {
		t.Errorf("the .1 file should hold the records written before the last rotation: %q", prev)
	}
}

func TestAppLogNeverWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sidekicks.log")
	l, err := openAppLog(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Many writers at once, far more records than the queue holds: none blocks, and the
	// file says how many were dropped, if any were.
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				l.Printf("record %d", i)
			}
		}()
	}
	wg.Wait()
	l.Printf("last")
	l.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(data), "\n")
	dropped := strings.Contains(string(data), "records dropped")
	if n != 8*2000+1 && !dropped {
		t.Errorf("%d lines written of %d, and no drop noted", n, 8*2000+1)
	}
	if n < appLogQueue {
		t.Errorf("only %d lines written", n)
	}
}
