package testagents

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// SmallDisk mounts a tmpfs of size (as mount's size= option says it: "4m") on a new
// folder and returns it; it is unmounted at the end of the test. The test is skipped, with
// the reason, when it does not run as root or the mount fails.
func SmallDisk(t testing.TB, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0755", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Logf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}

// FillDisk writes a file in dir until its file system is full, and returns the function
// that removes it (the space is free again).
func FillDisk(t testing.TB, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64<<10)
	for {
		if _, err = f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("filling %s: %v", dir, err)
	}
	return func() {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}

// Immutable sets the immutable attribute on path (chattr +i), and returns the function
// that removes it, also called at the end of the test. The test is skipped, with the
// reason, when the attribute cannot be set (not root, a file system without it, no chattr).
func Immutable(t testing.TB, path string) (undo func()) {
	t.Helper()
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s immutable: %v: %s", path, err, strings.TrimSpace(string(out)))
	}
	done := false
	undo = func() {
		if done {
			return
		}
		done = true
		if out, err := exec.Command("chattr", "-i", path).CombinedOutput(); err != nil {
			t.Errorf("chattr -i %s: %v: %s", path, err, out)
		}
	}
	t.Cleanup(undo)
	return undo
}
