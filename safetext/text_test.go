package safetext_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/safetext/safetexttest"
)

func TestText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"clean", "hello, wörld ✓ 日本", "hello, wörld ✓ 日本"},
		{"newline and tab kept", "a\tb\nc", "a\tb\nc"},
		{"CRLF becomes LF", "a\r\nb\r\n", "a\nb\n"},
		{"lone CR dropped", "50%\r60%", "50%60%"},
		{"C0 and DEL", "a\x00b\x07c\x08d\x7fe\x1ff", "abcdef"},
		{"CSI colour", "\x1b[31mred\x1b[0m plain", "red plain"},
		{"CSI private", "\x1b[?1049hx\x1b[2J\x1b[H", "x"},
		{"CSI cut short by a newline", "\x1b[3\nx", "\nx"},
		{"CSI at the end", "abc\x1b[", "abc"},
		{"CSI parameters at the end", "abc\x1b[38;5;19", "abc"},
		{"OSC with BEL", "\x1b]0;evil title\x07after", "after"},
		{"OSC with ST", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07ok", "ok"},
		{"OSC without end hides one line at most", "\x1b]0;evil\nnext", "\nnext"},
		{"OSC aborted by CAN", "\x1b]0;x\x18y", "y"},
		{"OSC ended by a new sequence", "\x1b]0;x\x1b[31my", "y"},
		{"DCS", "\x1bP1$r0m\x1b\\x", "x"},
		{"SOS", "\x1bXsos\x1b\\x", "x"},
		{"PM", "\x1b^pm\x1b\\x", "x"},
		{"APC", "\x1b_apc\x1b\\x", "x"},
		{"two-byte sequences", "\x1b7a\x1b8b\x1bcc\x1b=d", "abcd"},
		{"charset designation", "\x1b(Bx\x1b)0y", "xy"},
		{"lone ESC at the end", "abc\x1b", "abc"},
		{"ESC before non-ASCII", "\x1bé", "é"},
		{"ESC ESC", "\x1b\x1b[1mx", "x"},
		{"8-bit CSI as a rune", "\u009b31mx", "x"},
		{"8-bit OSC as a rune", "\u009d0;t\u009cx", "x"},
		{"8-bit DCS as a rune", "\u0090q#0\u009cx", "x"},
		{"other C1 runes", "a\u0085b\u0084c\u009cd", "abcd"},
		{"8-bit CSI as a raw byte", "\x9b31mx", "\uFFFD31mx"},
		{"bidi controls", "a\u202eb\u2066c\u200fd\u061ce\u202af\u2069g\u200eh", "abcdefgh"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"truncated UTF-8", "\xe2\x82", "\uFFFD\uFFFD"},
		{"surrogate half", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
		{"U+FFFD itself kept", "a\uFFFDb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := safetext.Text(tt.in)
			if got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
			assertSafe(t, "Text", got, false)
			if again := safetext.Text(got); again != got {
				t.Errorf("not idempotent: %q then %q", got, again)
			}
		})
	}
}

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Write notes.txt", "Write notes.txt"},
		{"a\nb\tc\r\nd", "a b c d"},
		{"\x1b[1mbold\x1b[0m\ntitle", "bold title"},
	}
	for _, tt := range tests {
		if got := safetext.Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A chunk may end anywhere in a sequence: sanitizing both halves independently must still
// let no escape through.
func TestTextSplitAnywhere(t *testing.T) {
	hostile := "ok \x1b[38;5;196mred\x1b[0m \x1b]0;title\x07 \x1b]8;;u\x1b\\l\x1b]8;;\x1b\\ \x1bP+q\x1b\\ \u009b1m \u202e é日 \x1b(B end\r\n"
	for i := 0; i <= len(hostile); i++ {
		a, b := safetext.Text(hostile[:i]), safetext.Text(hostile[i:])
		assertSafe(t, "first half", a, false)
		assertSafe(t, "second half", b, false)
		if strings.Contains(a+b, "\x1b") {
			t.Fatalf("split at %d: ESC survived in %q", i, a+b)
		}
	}
}

func TestTextCleanDoesNotAllocate(t *testing.T) {
	clean := strings.Repeat("fn main() { println!(\"héllo\") }\n\t", 100)
	allocs := testing.AllocsPerRun(100, func() {
		if safetext.Text(clean) != clean {
			t.Fatal("clean text changed")
		}
	})
	if allocs != 0 {
		t.Errorf("Text allocates %v times on clean text, want 0", allocs)
	}
}

// assertSafe fails when s holds anything Text must remove, or invalid UTF-8; with line,
// newlines and tabs too.
func assertSafe(t testing.TB, where, s string, line bool) {
	t.Helper()
	if msg := safetexttest.Reason(s, line); msg != "" {
		t.Errorf("%s: %s in %q", where, msg, s)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "a\r\nb", "\x1b[31mx", "\x1b]0;t\x07", "\x1bP\x1b\\", "\u009b1m", "\u202e",
		"\xff\xfe", "\x1b", "\x1b]", "é\x1b[", "\u009d", "\xc2", "\x1b\\",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lineMode := range []bool{false, true} {
			sanitize := safetext.Text
			if lineMode {
				sanitize = safetext.Line
			}
			out := sanitize(s)
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			if reason := safetexttest.Reason(out, lineMode); reason != "" {
				t.Fatalf("%s out of %q: %q", reason, s, out)
			}
			if again := sanitize(out); again != out {
				t.Fatalf("not idempotent on %q: %q then %q", s, out, again)
			}
			if safetexttest.Reason(s, lineMode) == "" && out != s {
				t.Fatalf("clean input %q changed to %q", s, out)
			}
		}
	})
}

func BenchmarkTextClean(b *testing.B) {
	for _, size := range []struct {
		name string
		text string
	}{
		{"20B", "the quick brown fox "},
		{"4KiB", strings.Repeat("func (c *Conversation) Len() int { return len(c.items) } // é\n", 64)},
	} {
		b.Run(size.name, func(b *testing.B) {
			b.SetBytes(int64(len(size.text)))
			b.ReportAllocs()
			for b.Loop() {
				safetext.Text(size.text)
			}
		})
	}
}

func BenchmarkTextDirty(b *testing.B) {
	text := strings.Repeat("\x1b[32mok\x1b[0m compiling crate \u202e\r\n", 64)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		safetext.Text(text)
	}
}
