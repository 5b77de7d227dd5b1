package cli

import "testing"

// TestUIProcs: the application runs two more goroutines at once than Go's default, unless
// the user set GOMAXPROCS.
func TestUIProcs(t *testing.T) {
	for _, c := range []struct {
		procs int
		env   string
		want  int
	}{{2, "", 4}, {1, "", 3}, {16, "", 18}, {2, "2", 2}, {8, "1", 8}} {
		if got := uiProcs(c.procs, c.env); got != c.want {
			t.Errorf("uiProcs(%d, %q) = %d, want %d", c.procs, c.env, got, c.want)
		}
	}
}
