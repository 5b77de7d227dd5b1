package runtime

import (
	"context"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestSelectLinesWhateverTheReadsGive: the same lines come out whether the reader gives
// one byte at a time or all at once (the newlines counted by block must not drift).
func TestSelectLinesWhateverTheReadsGive(t *testing.T) {
	const text = "one\n\ntwo\nthree"
	for _, c := range []struct {
		line, limit int
		want        string
	}{
		{1, -1, text}, {2, 1, "\n"}, {3, 1, "two\n"}, {3, -1, "two\nthree"}, {4, 1, "three"},
		{4, 3, "three"}, {5, 1, ""}, {5, -1, ""}, {1, 0, ""}, {1, 2, "one\n\n"},
	} {
		for name, r := range map[string]io.Reader{
			"one byte at a time": iotest.OneByteReader(strings.NewReader(text)),
			"all at once":        strings.NewReader(text),
		} {
			got, err := selectLines(context.Background(), r, c.line, c.limit, 1<<10)
			if err != nil || string(got) != c.want {
				t.Errorf("%s: lines %d+%d = %q, %v; want %q", name, c.line, c.limit, got, err, c.want)
			}
		}
	}
}
