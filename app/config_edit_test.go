package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteNewFileIsTheUsersAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".sidekicks", "acp.toml")
	if err := writeNewFile(path, []byte("# agents\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("%s has mode %04o; want 0600", path, got)
	}
	if err := writeNewFile(path, []byte("again\n")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("writing it again: %v; want fs.ErrExist", err)
	}
}
