package acp

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every line, noting skipped ones as "!skipped N <prefix>".
func readAll(t *testing.T, r io.Reader, max int) []string {
	t.Helper()
	lr := newLineReader(r, max)
	var out []string
	for {
		ln, err := lr.next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if ln.skipped {
			out = append(out, "!skipped "+itoa(ln.size)+" "+string(ln.data[:min(len(ln.data), 8)]))
			continue
		}
		out = append(out, string(ln.data))
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestLineReader(t *testing.T) {
	long := func(c string, n int) string { return strings.Repeat(c, n) }
	big := readBufferSize*3 + 17
	for _, tc := range []struct {
		name  string
		input string
		max   int
		want  []string
	}{
		{"short lines", "a\nbb\n\nccc", 10, []string{"a", "bb", "", "ccc"}},
		{"crlf", "a\r\nb\r\n", 10, []string{"a", "b"}},
		{"exactly the limit", long("x", 10) + "\n" + long("y", 10) + "\r\n", 10, []string{long("x", 10), long("y", 10)}},
		{"one over, short", long("x", 11) + "\nok\n", 10, []string{"!skipped 11 xxxxxxxx", "ok"}},
		{"one over, no end of line", "ok\n" + long("x", 11), 10, []string{"ok", "!skipped 11 xxxxxxxx"}},
		{"long within the limit", long("a", big) + "\nok\n", big, []string{long("a", big), "ok"}},
		{"long within the limit, crlf", long("a", big) + "\r\nok\n", big, []string{long("a", big), "ok"}},
		{"long, last", "ok\n" + long("a", big), big, []string{"ok", long("a", big)}},
		{"long over the limit", long("b", big) + "\nok\n", big - 1, []string{"!skipped " + itoa(int64(big)) + " bbbbbbbb", "ok"}},
		{"long over the limit, crlf", long("b", big) + "\r\nok\n", big - 1, []string{"!skipped " + itoa(int64(big)) + " bbbbbbbb", "ok"}},
		{"long over the limit, last", "ok\n" + long("b", big), big - 1, []string{"ok", "!skipped " + itoa(int64(big)) + " bbbbbbbb"}},
		{"far over a small limit", long("c", big) + "\nok\n", 100, []string{"!skipped " + itoa(int64(big)) + " cccccccc", "ok"}},
		{"several", long("d", big) + "\n" + long("e", 50) + "\n" + long("f", big) + "\n", big, []string{long("d", big), long("e", 50), long("f", big)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for name, r := range map[string]io.Reader{
				"whole":    strings.NewReader(tc.input),
				"one byte": iotest.OneByteReader(strings.NewReader(tc.input)),
				"half":     iotest.HalfReader(strings.NewReader(tc.input)),
			} {
				got := readAll(t, r, tc.max)
				if len(got) != len(tc.want) {
					t.Fatalf("%s: %d lines, want %d: %.200q", name, len(got), len(tc.want), got)
				}
				for i := range got {
					if got[i] != tc.want[i] {
						t.Errorf("%s: line %d = %.60q (%d bytes), want %.60q (%d bytes)", name, i, got[i], len(got[i]), tc.want[i], len(tc.want[i]))
					}
				}
			}
		})
	}
}

// TestLineReaderNeverHoldsALongLine reads a 64 MiB line with a 1 MiB limit: the reader
// keeps no more than its buffer.
func TestLineReaderNeverHoldsALongLine(t *testing.T) {
	const size = 64 << 20
	r := io.MultiReader(&repeatReader{b: 'z', n: size}, strings.NewReader("\nafter\n"))
	lr := newLineReader(r, 1<<20)
	ln, err := lr.next()
	if err != nil || !ln.skipped || ln.size != size {
		t.Fatalf("line = skipped %v size %d, %v", ln.skipped, ln.size, err)
	}
	if cap(lr.long) > 2<<20 || len(lr.prefix) > keptPrefix {
		t.Errorf("the reader holds %d bytes of the line", cap(lr.long)+len(lr.prefix))
	}
	ln, err = lr.next()
	if err != nil || string(ln.data) != "after" {
		t.Errorf("next line = %q, %v", ln.data, err)
	}
}

// repeatReader yields n times the byte b.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	copy(p, bytes.Repeat([]byte{r.b}, n))
	r.n -= n
	return n, nil
}

func TestPeekMessage(t *testing.T) {
	for _, tc := range []struct {
		prefix            string
		id                string
		request, response bool
	}{
		{`{"jsonrpc":"2.0","id":12,"result":{"stopReason":"end_tu`, "12", false, true},
		{`{"jsonrpc":"2.0","id":"a","error":{"code":1`, `"a"`, false, true},
		{`{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":{"pa`, "5", true, false},
		{`{"jsonrpc":"2.0","method":"session/update","params":{"se`, "", true, false},
		{`{"result":{"x":1},"id":3`, "", false, true},
		{`{"params":{},"id":3,"method":"x"`, "", true, false},
		{`{"jsonrpc":"2.0","id":7`, "7", false, false},
		{`[1,2`, "", false, false},
		{`garbage`, "", false, false},
	} {
		p := peekMessage([]byte(tc.prefix))
		if string(p.id) != tc.id || p.request != tc.request || p.response != tc.response {
			t.Errorf("peekMessage(%q) = id %q request %v response %v", tc.prefix, p.id, p.request, p.response)
		}
	}
}
