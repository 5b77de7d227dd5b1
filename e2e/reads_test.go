package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// maxPeakMiB is the most memory the sidekicks process (its agent included) may take while
// an agent reads what it should not.
const maxPeakMiB = 300

// An agent that asks, all at once, for a 1 GiB file three times, a named pipe nobody
// writes to and a device that never ends gets each refused with a clear message and the
// small file served, within seconds, while sidekicks stays far below the file's size.
func TestAskGreedyReadsAreRefusedQuicklyInLittleMemory(t *testing.T) {
	env := isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	big, err := os.Create(filepath.Join(ws, "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(1 << 30); err != nil { // sparse: it takes no disk
		t.Fatal(err)
	}
	big.Close()
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "small.txt"), []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{"huge.bin", "huge.bin", "huge.bin", "pipe"}
	// A device like /dev/zero (1, 5), which says its size is 0 and never ends, when this
	// test may make one (root).
	if err := syscall.Mknod(filepath.Join(ws, "zero"), syscall.S_IFCHR|0o644, 1<<8|5); err == nil {
		paths = append(paths, "zero")
	} else {
		t.Logf("no device tested: %v", err)
	}
	paths = append(paths, "small.txt")
	cfg := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "reader", "reader", ws))

	start := time.Now()
	r := runBinary(t, env, dir, 5*time.Second, "ask", "--config", cfg, "reader", strings.Join(paths, " "))
	took := time.Since(start)
	t.Logf("%d reads answered in %v; peak memory of sidekicks and its agent: %d KiB (%.1f MiB)",
		len(paths), took.Round(time.Millisecond), r.peakKiB, float64(r.peakKiB)/1024)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != len(paths) {
		t.Fatalf("%d lines for %d reads:\n%s\nstderr:\n%s", len(lines), len(paths), r.stdout, r.stderr)
	}
	for i, p := range paths {
		want := p + ": refused: reading " + filepath.Join(ws, p) + ": "
		switch p {
		case "huge.bin":
			want += "the text is over the 8 MiB one answer may carry; read it in parts with line and limit"
		case "pipe", "zero":
			want += "not a regular file (a named pipe, a device…); it is not read"
		case "small.txt":
			want = "small.txt: 12 bytes"
		}
		if lines[i] != want {
			t.Errorf("read %d:\n got %q\nwant %q", i+1, lines[i], want)
		}
	}
	if r.peakKiB <= 0 {
		t.Errorf("no peak memory measured (%d KiB)", r.peakKiB)
	}
	if r.peakKiB > maxPeakMiB<<10 {
		t.Errorf("peak memory %d MiB, over %d MiB", r.peakKiB>>10, maxPeakMiB)
	}
}
