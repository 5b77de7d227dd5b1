package agentstack

import (
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// TestMentionsOfPipesAndHugeFilesAreNotRead: an @file mention of a named pipe (listed as
// a file) or of a 1 GiB file is refused at once, without blocking on the pipe or loading
// the file: the prompt then carries a link instead.
func TestMentionsOfPipesAndHugeFilesAreNotRead(t *testing.T) {
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(ws, "huge.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	big.Close()
	f := newWorkspaceFiles(runtime.NewLocalWorkspace(ws, nil))
	read := func(p string) error {
		t.Helper()
		if !f.Known(p) {
			t.Fatalf("%s is not known as a file", p)
		}
		done := make(chan error, 1)
		go func() {
			_, err := f.Read(p)
			done <- err
		}()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Fatalf("reading %s: no answer within 5s", p)
			return nil
		}
	}
	if err := read("pipe"); !errors.Is(err, runtime.ErrNotRegular) {
		t.Errorf("pipe: err = %v, want ErrNotRegular", err)
	}
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	err = read("huge.txt")
	goruntime.ReadMemStats(&after)
	if !errors.Is(err, runtime.ErrTooLarge) {
		t.Errorf("huge.txt: err = %v, want ErrTooLarge", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("reading huge.txt allocated %d MiB", alloc>>20)
	}
}
