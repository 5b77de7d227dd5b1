package safetext_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/safetext/safetexttest"
)

func TestCaret(t *testing.T) {
	for in, want := range map[string]string{
		"plain\ttab":                  "plain\ttab",
		"three\x1b[31mred\x1b[0m\x07": "three^[[31mred^[[0m^G",
		"a\nb\rc":                     "a^Jb^Mc",
		"nul\x00del\x7f":              "nul^@del^?",
		"c1\u0085\u009b":              "c1\uFFFD\uFFFD",
		"bidi\u202ex\u2066":           "bidi\uFFFDx\uFFFD",
		"bad\xffutf8":                 "bad\uFFFDutf8",
		"👩 é\u2028":                   "👩 é\u2028",
	} {
		if got := safetext.Caret(in); got != want {
			t.Errorf("Caret(%q) = %q, want %q", in, got, want)
		}
	}
}

// The configuration's messages quote what a file holds with Go escapes (moved from the
// config package's TestPrintable).
func TestEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"plain":          "plain",
		"a\nb\tc\rd":     `a\nb\tc\rd`,
		"\x1b[31mred":    `\x1b[31mred`,
		"\u009b2J":       `\x9b2J`,
		"bidi\u202etext": `bidi\u202etext`,
		"bad\xffutf8":    "bad\ufffdutf8",
		"👩 é":            "👩 é",
		"line\u2028sep":  `line\u2028sep`,
	} {
		if got := safetext.Escaped(in); got != want {
			t.Errorf("Escaped(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanTextIsNotCopied(t *testing.T) {
	clean := strings.Repeat("fn main() { println!(\"héllo\") } ", 20)
	allocs := testing.AllocsPerRun(100, func() {
		if safetext.Line(clean) != clean || safetext.Snippet(clean, len(clean)) != clean ||
			safetext.Caret(clean) != clean || safetext.Escaped(clean) != clean {
			t.Fatal("clean text changed")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations on clean text, want 0", allocs)
	}
}

// Whatever the input, what Snippet, Caret and Escaped return holds no character a terminal
// would act on.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{
		"", "plain", "a\r\nb\tc", "\x1b[31mx", "\x1b]0;t\x07", "\u009b1m", "\u202e", "\u2028",
		"\xff\xfe", "\x7f", "é\x1b[", "\xc2",
	} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max = max % 1000
		if max < 0 {
			max = -max
		}
		snippet := safetext.Snippet(s, max)
		if reason := safetexttest.Reason(snippet, true); reason != "" {
			t.Fatalf("Snippet: %s out of %q: %q", reason, s, snippet)
		}
		if n := len(snippet); n > max+utf8.UTFMax+len("…") {
			t.Fatalf("Snippet(%q, %d) holds %d bytes", s, max, n)
		}
		caret := safetext.Caret(s)
		if reason := safetexttest.Reason(strings.ReplaceAll(caret, "\t", " "), true); reason != "" {
			t.Fatalf("Caret: %s out of %q: %q", reason, s, caret)
		}
		escaped := safetext.Escaped(s)
		if reason := safetexttest.Reason(escaped, true); reason != "" {
			t.Fatalf("Escaped: %s out of %q: %q", reason, s, escaped)
		}
		if strings.ContainsAny(escaped, "\u2028\u2029") {
			t.Fatalf("Escaped: a line or paragraph separator out of %q: %q", s, escaped)
		}
	})
}
