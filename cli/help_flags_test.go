package cli

import (
	"strings"
	"testing"
)

// TestHelpAfterAnOption: `sidekicks --config F --help` (or -h, or help) prints the help on
// stdout with status 0, as `sidekicks --help` does; --version and version after an option
// print the version; a mistake after an option still gives the help on stderr and 2.
func TestHelpAfterAnOption(t *testing.T) {
	inTempDir(t)
	for _, args := range [][]string{
		{"--config", "c.yaml", "--help"},
		{"--config", "c.yaml", "-h"},
		{"--config=c.yaml", "help"},
	} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "usage: sidekicks [--config FILE]\n") || !strings.Contains(out, "\n  SIDEKICKS_CONFIG ") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", args, code, errOut, out)
		}
	}
	for _, args := range [][]string{
		{"--config", "c.yaml", "--version"},
		{"--config", "c.yaml", "-v"},
		{"--config", "c.yaml", "version"},
	} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "sidekicks dev\ncommit: ") {
			t.Errorf("%q: exit %d, stderr %q, stdout %q", args, code, errOut, out)
		}
	}
	for _, args := range [][]string{
		{"--config", "c.yaml", "--nope"},
		{"--config", "c.yaml", "nope"},
		{"--config", "c.yaml", "help", "extra"},
	} {
		code, out, errOut := runCmd(t, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: sidekicks [--config FILE]") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and the help on stderr", args, code, out, errOut)
		}
	}
}
