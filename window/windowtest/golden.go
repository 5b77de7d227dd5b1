package windowtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Golden compares got with the file at path, or rewrites the file with got when update is
// set (each test binary has its own -update flag and passes its value). It reports a
// difference with t.Errorf and says whether there was none.
func Golden(t testing.TB, path, got string, update bool) bool {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return true
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the golden file (run with -update to create it): %v", err)
	}
	if string(want) == got {
		return true
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("screen differs from %s at line %d (run with -update to accept):\nwant %q\ngot  %q\n\nscreen:\n%s", path, i+1, w, g, got)
			break
		}
	}
	return false
}
