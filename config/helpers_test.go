package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parseIn parses content as the file config.yaml of a new temporary folder, with LANG
// set to lang ("" for English) and PATH to an empty folder unless the test set it.
func parseIn(t *testing.T, dir, content string) (*Config, Diagnostics) {
	t.Helper()
	path := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := Load(path)
	checkInvariants(t, path, cfg, diags)
	return cfg, diags
}

// parseText parses content in a new folder, with LANG=C (LC_ALL and LC_MESSAGES
// empty) and an empty PATH.
func parseText(t *testing.T, content string) (*Config, Diagnostics) {
	t.Helper()
	t.Setenv("LANG", "C")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	t.Setenv("PATH", t.TempDir())
	return parseIn(t, t.TempDir(), content)
}

// checkInvariants checks what holds for every load: a Config exactly when there is no
// error, a line and the file on every diagnostic, and no raw control byte in a message.
func checkInvariants(t testing.TB, path string, cfg *Config, diags Diagnostics) {
	t.Helper()
	if (cfg == nil) != diags.HasErrors() {
		t.Errorf("config nil = %v, but HasErrors = %v: %v", cfg == nil, diags.HasErrors(), diags)
	}
	for _, d := range diags {
		if d.Line < 1 {
			t.Errorf("diagnostic without a line: %+v", d)
		}
		if d.File != path {
			t.Errorf("diagnostic File = %q, want %q", d.File, path)
		}
		if d.Message == "" {
			t.Errorf("empty message: %+v", d)
		}
		if strings.IndexFunc(d.Message, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) >= 0 {
			t.Errorf("control character in message %q", d.Message)
		}
	}
}

// messages returns the diagnostics' messages.
func messages(d Diagnostics) []string {
	var out []string
	for _, x := range d {
		out = append(out, x.Message)
	}
	return out
}

// errorsOnly returns the errors' messages, leaving the warnings out.
func errorsOnly(d Diagnostics) []string {
	var out []string
	for _, x := range d {
		if !x.Warning {
			out = append(out, x.Message)
		}
	}
	return out
}

// wantMessages fails unless the messages are exactly want, in order.
func wantMessages(t *testing.T, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
