package workbench

import "testing"

// cursorText shows the buffer with the cursor as "|".
func cursorText(b *textBuffer) string {
	out := ""
	for i, l := range b.lines {
		if i > 0 {
			out += "\n"
		}
		if i == b.row {
			out += l[:b.col] + "|" + l[b.col:]
		} else {
			out += l
		}
	}
	return out
}

func TestTextBufferEdits(t *testing.T) {
	type op func(b *textBuffer)
	ins := func(s string) op { return func(b *textBuffer) { b.insert(s) } }
	tests := []struct {
		name     string
		text     string
		ops      []op
		want     string // with the cursor
		saved    string // String()
		modified bool
	}{
		{"typing at the start", "abc", []op{ins("x")}, "x|abc", "xabc", true},
		{"end then type", "abc\ndef", []op{(*textBuffer).end, ins("!")}, "abc!|\ndef", "abc!\ndef", true},
		{"newline keeps the indentation", "\tif x {", []op{(*textBuffer).end, (*textBuffer).newline, ins("y")}, "\tif x {\n\ty|", "\tif x {\n\ty", true},
		{"newline inside the indentation", "    x", []op{(*textBuffer).right, (*textBuffer).right, (*textBuffer).newline}, "  \n  |  x", "  \n    x", true},
		{"backspace joins lines", "ab\ncd", []op{(*textBuffer).down, (*textBuffer).backspace}, "ab|cd", "abcd", true},
		{"delete joins lines", "ab\ncd", []op{(*textBuffer).end, (*textBuffer).del}, "ab|cd", "abcd", true},
		{"backspace at the start does nothing", "ab", []op{(*textBuffer).backspace}, "|ab", "ab", false},
		{"delete at the end does nothing", "ab", []op{(*textBuffer).end, (*textBuffer).del}, "ab|", "ab", false},
		{"an emoji is one step", "a👩‍💻b", []op{(*textBuffer).right, (*textBuffer).right, (*textBuffer).backspace}, "a|b", "ab", true},
		{"an accent is one step", "e\u0301x", []op{(*textBuffer).right, (*textBuffer).del}, "e\u0301|", "e\u0301", true},
		{"paste splits lines and cleans", "[]", []op{(*textBuffer).right, ins("1\r\n2\x1b[31m\r3\x00")}, "[1\n2[31m\n3|]", "[1\n2[31m\n3]", true},
		{"crlf kept", "a\r\nb\r\n", []op{(*textBuffer).down, ins("x")}, "a\nx|b\n", "a\r\nxb\r\n", true},
		{"lone CR is a character", "a\rb\n", []op{ins("x")}, "x|a\rb\n", "xa\rb\n", true},
		{"final newline kept", "a\n", []op{ins("b")}, "b|a\n", "ba\n", true},
		{"left wraps to the line above", "ab\ncd", []op{(*textBuffer).down, (*textBuffer).left}, "ab|\ncd", "ab\ncd", false},
		{"right wraps to the line below", "ab\ncd", []op{(*textBuffer).end, (*textBuffer).right}, "ab\n|cd", "ab\ncd", false},
		// Up and down keep the display column: a tab is 4 columns, 界 is 2.
		{"vertical keeps the column", "\tx\n界界ab\nz", []op{(*textBuffer).right, (*textBuffer).down}, "\tx\n界界|ab\nz", "\tx\n界界ab\nz", false},
		{"vertical clamps and comes back", "abcd\na\nabcd", []op{(*textBuffer).end, (*textBuffer).down, (*textBuffer).down}, "abcd\na\nabcd|", "abcd\na\nabcd", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newTextBuffer(tt.text)
			for _, o := range tt.ops {
				o(b)
			}
			if got := cursorText(b); got != tt.want {
				t.Errorf("buffer %q, want %q", got, tt.want)
			}
			if got := b.String(); got != tt.saved {
				t.Errorf("saved as %q, want %q", got, tt.saved)
			}
			if b.modified() != tt.modified {
				t.Errorf("modified %v, want %v", b.modified(), tt.modified)
			}
		})
	}
}

// down is vertical(1), for the table.
func (b *textBuffer) down() { b.vertical(1) }

func TestTextBufferColumns(t *testing.T) {
	tests := []struct {
		line       string
		col        int // byte offset
		display    int
		expanded   string
		colAtDispl int // colAt(line, display) gives col back
	}{
		{"abc", 2, 2, "abc", 2},
		{"\tx", 1, 4, "    x", 1},
		{"a\tx", 2, 4, "a   x", 2},
		{"界a", 3, 2, "界a", 3},
		{"\x01a", 1, 1, "\x01a", 1}, // a control character is drawn as one placeholder
	}
	for _, tt := range tests {
		if got := displayWidth(tt.line[:tt.col]); got != tt.display {
			t.Errorf("%q at %d: column %d, want %d", tt.line, tt.col, got, tt.display)
		}
		if got := expandTabs(tt.line); got != tt.expanded {
			t.Errorf("%q expands to %q, want %q", tt.line, got, tt.expanded)
		}
		if got := colAt(tt.line, tt.display); got != tt.colAtDispl {
			t.Errorf("%q: colAt(%d) = %d, want %d", tt.line, tt.display, got, tt.colAtDispl)
		}
	}
	// A click in the middle of a wide character lands before it.
	if got := colAt("界a", 1); got != 0 {
		t.Errorf("colAt inside 界 = %d, want 0", got)
	}
}
