package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// readLimited reads through the workspace with the given limit.
func readLimited(ctx context.Context, ws Workspace, rel string, max int64) ([]byte, error) {
	return ws.ReadFile(ctx, rel, max)
}

// readQuickly reads rel with a limit and fails the test when no answer comes within the
// deadline (a read that blocks forever, on a named pipe say, is a failure).
func readQuickly(t *testing.T, ws Workspace, rel string, max int64, within time.Duration) ([]byte, error) {
	t.Helper()
	type answer struct {
		data []byte
		err  error
	}
	done := make(chan answer, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		data, err := readLimited(ctx, ws, rel, max)
		done <- answer{data, err}
	}()
	select {
	case a := <-done:
		return a.data, a.err
	case <-time.After(within):
		t.Fatalf("reading %s: no answer within %v", rel, within)
		return nil, nil
	}
}

// TestReadOfAHugeFileIsRefusedWithoutLoadingIt: an agent asks three times at once for a
// 1 GiB file (sparse: it takes no disk). Each read is refused as too large within
// seconds, and the reads together allocate far less than the file.
func TestReadOfAHugeFileIsRefusedWithoutLoadingIt(t *testing.T) {
	for kind, newWS := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			ws := newWS(t, f.root, nil)
			big, err := os.Create(filepath.Join(f.root, "huge.bin"))
			if err != nil {
				t.Fatal(err)
			}
			if err := big.Truncate(1 << 30); err != nil {
				t.Fatal(err)
			}
			big.Close()

			var before, after goruntime.MemStats
			goruntime.GC()
			goruntime.ReadMemStats(&before)
			errs := make(chan error, 3)
			var wg sync.WaitGroup
			for range 3 {
				wg.Go(func() {
					_, err := readQuickly(t, ws, "huge.bin", 8<<20, 10*time.Second)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			goruntime.ReadMemStats(&after)
			for err := range errs {
				if !errors.Is(err, ErrTooLarge) {
					t.Errorf("err = %v, want ErrTooLarge", err)
				}
			}
			// Each read may hold its limit (and a little more); none may hold the file.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
				t.Errorf("the three reads allocated %d MiB", alloc>>20)
			}
			if after.HeapInuse > 300<<20 {
				t.Errorf("heap in use after the reads: %d MiB", after.HeapInuse>>20)
			}
		})
	}
}

// TestReadOfAFileAtTheLimit: the limit is inclusive; one byte more is refused.
func TestReadOfAFileAtTheLimit(t *testing.T) {
	for kind, newWS := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			ws := newWS(t, f.root, nil)
			mustWrite(t, filepath.Join(f.root, "ten.txt"), "0123456789")
			data, err := readQuickly(t, ws, "ten.txt", 10, deadline)
			if err != nil || string(data) != "0123456789" {
				t.Errorf("at the limit: %q, %v", data, err)
			}
			if _, err := readQuickly(t, ws, "ten.txt", 9, deadline); !errors.Is(err, ErrTooLarge) {
				t.Errorf("one byte over: err = %v, want ErrTooLarge", err)
			}
		})
	}
}

// TestReadOfWhatIsNotARegularFileIsRefused: a named pipe that nobody writes to (its
// open(2) would block forever), a character device (it says size 0 and may never end),
// a folder. Each is refused at once, through a link inside the workspace too.
func TestReadOfWhatIsNotARegularFileIsRefused(t *testing.T) {
	for kind, newWS := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			ws := newWS(t, f.root, nil)
			if err := syscall.Mkfifo(filepath.Join(f.root, "pipe"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("pipe", filepath.Join(f.root, "pipe-link")); err != nil {
				t.Fatal(err)
			}
			names := []string{"pipe", "pipe-link"}
			// A device like /dev/null (1, 3), when this test may make one (root).
			if err := syscall.Mknod(filepath.Join(f.root, "null"), syscall.S_IFCHR|0o644, 1<<8|3); err == nil {
				names = append(names, "null")
			} else {
				t.Logf("no device tested: %v", err)
			}
			for _, name := range names {
				_, err := readQuickly(t, ws, name, 1<<20, 5*time.Second)
				if !errors.Is(err, ErrNotRegular) {
					t.Errorf("%s: err = %v, want ErrNotRegular", name, err)
				}
			}
			if _, err := readQuickly(t, ws, "docs", 1<<20, 5*time.Second); err == nil {
				t.Error("reading a folder succeeded")
			}
		})
	}
}

// TestLocalOperationsHonourTheirContext: a cancelled context stops every operation of
// the local workspace before it touches anything.
func TestLocalOperationsHonourTheirContext(t *testing.T) {
	f := newFixture(t)
	ws := NewLocalWorkspace(f.root, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, errRead := readLimited(ctx, ws, "notes.txt", 1<<20)
	_, errList := ws.List(ctx, ".")
	for what, err := range map[string]error{
		"read":   errRead,
		"list":   errList,
		"write":  ws.WriteFile(ctx, "new.txt", []byte("x")),
		"mkdir":  ws.Mkdir(ctx, "newdir"),
		"rename": ws.Rename(ctx, "notes.txt", "moved.txt"),
		"delete": ws.Delete(ctx, "AGENTS.md"),
	} {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", what, err)
		}
	}
	for _, name := range []string{"new.txt", "newdir", "moved.txt"} {
		if _, err := os.Lstat(filepath.Join(f.root, name)); err == nil {
			t.Errorf("%s was created", name)
		}
	}
	for _, name := range []string{"notes.txt", "AGENTS.md"} {
		if _, err := os.Lstat(filepath.Join(f.root, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestExecReadStopsAnEndlessAnswer: an engine that prints without end (a container whose
// head misbehaves, a file that grows) is stopped once more than the limit came, and the
// read is refused as too large instead of collecting it all.
func TestExecReadStopsAnEndlessAnswer(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "docker"), []byte("#!/bin/sh\nexec yes sidekicks\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	ws := NewContainerWorkspace("box", "/work", nil, nil)
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	_, err := readQuickly(t, ws, "endless.txt", 1<<20, 10*time.Second)
	goruntime.ReadMemStats(&after)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("the read allocated %d MiB", alloc>>20)
	}
}

// TestReadLinesReadsOnlyWhatItNeeds: lines are picked as fs/read_text_file means them
// (1-based, a line ends after its newline, the last may have none), from a file much
// bigger than the text returned, without loading it; a text over the limit is refused,
// and so is what is not a regular file.
func TestReadLinesReadsOnlyWhatItNeeds(t *testing.T) {
	for kind, newWS := range workspaceKinds() {
		t.Run(kind, func(t *testing.T) {
			f := newFixture(t)
			ws := newWS(t, f.root, nil)
			ctx := context.Background()
			mustWrite(t, filepath.Join(f.root, "abc.txt"), "one\ntwo\nthree")
			for _, c := range []struct {
				line, limit int
				want        string
			}{
				{1, -1, "one\ntwo\nthree"}, {2, 1, "two\n"}, {2, -1, "two\nthree"}, {1, 2, "one\ntwo\n"},
				{3, 5, "three"}, {10, -1, ""}, {10, 2, ""}, {1, 0, ""},
			} {
				got, err := ws.ReadLines(ctx, "abc.txt", c.line, c.limit, 1<<20)
				if err != nil || string(got) != c.want {
					t.Errorf("lines %d+%d = %q, %v; want %q", c.line, c.limit, got, err, c.want)
				}
			}
			if _, err := ws.ReadLines(ctx, "abc.txt", 1, 2, 7); !errors.Is(err, ErrTooLarge) {
				t.Errorf("8 bytes with a limit of 7: err = %v, want ErrTooLarge", err)
			}
			if err := syscall.Mkfifo(filepath.Join(f.root, "pipe"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ws.ReadLines(ctx, "pipe", 1, 1, 1<<20); !errors.Is(err, ErrNotRegular) {
				t.Errorf("pipe: err = %v, want ErrNotRegular", err)
			}

			// 2 million lines (22 MB): the last two cost no more than themselves.
			mustWrite(t, filepath.Join(f.root, "big.txt"), strings.Repeat("0123456789\n", 2_000_000-2)+"00001999998\n00001999999\n")
			var before, after goruntime.MemStats
			goruntime.GC()
			goruntime.ReadMemStats(&before)
			got, err := ws.ReadLines(ctx, "big.txt", 1_999_999, 5, 1<<20)
			goruntime.ReadMemStats(&after)
			if err != nil || string(got) != "00001999998\n00001999999\n" {
				t.Errorf("the last lines = %q, %v", got, err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
				t.Errorf("reading two lines allocated %d KiB", alloc>>10)
			}
		})
	}
}
