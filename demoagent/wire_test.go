package demoagent

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// repeatReader yields n bytes of x, then nothing, without holding them.
type repeatReader struct {
	n int64
}

var xs = bytes.Repeat([]byte("x"), 1<<20)

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(int64(len(p)), r.n)], xs)
	r.n -= int64(k)
	return k, nil
}

func TestReadLinesSkipsOverlongLines(t *testing.T) {
	const limit = 1000
	exact := strings.Repeat("y", limit)
	in := io.MultiReader(
		strings.NewReader("first\n"),
		&repeatReader{n: limit + 10},
		strings.NewReader("\nmiddle\n"),
		&repeatReader{n: 300 << 10}, // several times bufio's buffer
		strings.NewReader("\n\n  \n"+exact+"\nlast"),
	)
	lines := make(chan []byte, 10)
	var skipped []int64
	if err := readLines(in, limit, lines, func(n int64) { skipped = append(skipped, n) }, make(chan struct{})); err != nil {
		t.Fatalf("readLines: %v", err)
	}
	close(lines)
	var got []string
	for l := range lines {
		got = append(got, string(l))
	}
	if len(got) != 4 || got[0] != "first" || got[1] != "middle" || got[2] != exact || got[3] != "last" {
		t.Errorf("lines %.80q, want first, middle, %d bytes and last", got, limit)
	}
	if len(skipped) != 2 || skipped[0] != limit+11 || skipped[1] != 300<<10+1 {
		t.Errorf("skipped %v, want lines of %d and %d bytes", skipped, limit+11, 300<<10+1)
	}
}
