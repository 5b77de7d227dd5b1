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
	for _, d := range DiffRows(string(want), got) {
		t.Errorf("screen differs from %s at line %d (run with -update to accept):\nwant %q\ngot  %q\n\nscreen:\n%s", path, d.Row+1, d.A, d.B, got)
		break
	}
	return false
}

// RowDiff is a row where two screens differ: its index (from 0) and what each has there.
type RowDiff struct {
	Row  int
	A, B string
}

// DiffRows lists the rows where the screens a and b (rows separated by newlines) differ.
func DiffRows(a, b string) []RowDiff {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []RowDiff
	for i := range max(len(la), len(lb)) {
		var ra, rb string
		if i < len(la) {
			ra = la[i]
		}
		if i < len(lb) {
			rb = lb[i]
		}
		if ra != rb {
			out = append(out, RowDiff{i, ra, rb})
		}
	}
	return out
}
