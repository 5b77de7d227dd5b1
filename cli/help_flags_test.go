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

// TestCommandHelpOnStandardOutput: `COMMAND --help` (or -h, among its options) prints the
// command's usage on stdout with status 0; -h as an option's value, or after the command's
// first argument, is not a request for help.
func TestCommandHelpOnStandardOutput(t *testing.T) {
	inTempDir(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--help"}, "usage: sidekicks check [--json] [--config FILE] [FILE…]\n"},
		{[]string{"check", "--json", "-h"}, "usage: sidekicks check"},
		{[]string{"ask", "--yes", "--help"}, "usage: " + askSynopsis + "\n"},
		{[]string{"schema", "-h"}, "usage: sidekicks schema\n"},
		{[]string{"allow", "--help"}, "usage: sidekicks allow"},
		{[]string{"demo-agent", "--help"}, "usage: sidekicks demo-agent"},
		{[]string{"completion", "--help"}, "usage: sidekicks completion bash|zsh|fish\n"},
		{[]string{"man", "--help"}, "usage: sidekicks man\n"},
		{[]string{"version", "--help"}, "usage: sidekicks version\n"},
	} {
		code, out, errOut := runCmd(t, tt.args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, tt.want) {
			t.Errorf("%q: exit %d, stderr %q, stdout %q; want 0 and %q", tt.args, code, errOut, out, tt.want)
		}
	}
	// --help is the value of --config here: check looks for a file of that name.
	if code, out, _ := runCmd(t, "check", "--config", "--help"); code != 1 || strings.Contains(out, "usage:") {
		t.Errorf("check --config --help: exit %d, stdout %q; want the file checked", code, out)
	}
	// After the agent, --help is a word of the message, not an option.
	if code, out, errOut := runCmd(t, "ask", "nobody", "--help"); code == 0 || strings.Contains(out, "usage:") {
		t.Errorf("ask nobody --help: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// A mistake with it is still a mistake, said on stderr.
	if code, out, errOut := runCmd(t, "check", "--nope", "--help"); code != 2 || out != "" || !strings.Contains(errOut, "usage: sidekicks check") {
		t.Errorf("check --nope --help: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestAskHelpNamesTheValues: each option of `ask --help` names what it takes, as the
// synopsis does, rather than the flag package's "value".
func TestAskHelpNamesTheValues(t *testing.T) {
	inTempDir(t)
	code, out, errOut := runCmd(t, "ask", "--help")
	errOut += out
	for _, want := range []string{"\n  -option ID=VALUE\n", "\n  -mode ID\n", "\n  -config FILE\n", "\n  -trace FILE\n"} {
		if code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("ask --help: exit %d, want %q in:\n%s", code, want, errOut)
		}
	}
	if strings.Contains(errOut, " value\n") {
		t.Errorf("ask --help names a value \"value\":\n%s", errOut)
	}
}
