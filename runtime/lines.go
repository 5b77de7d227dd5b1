package runtime

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
)

// selectLines reads from r the lines [line, line+limit) (line is 1-based, a negative
// limit means to the end; a line ends after its newline, the last one may have none) and
// returns them, refusing with a *TooLargeError once they pass max bytes. The lines before
// are skipped through a small buffer, never held: a file of any size costs this much
// memory and the lines returned. A line beyond the end gives nothing.
func selectLines(ctx context.Context, r io.Reader, line, limit int, max int64) ([]byte, error) {
	rest, err := skipLines(ctx, r, line-1)
	if err != nil || rest == nil {
		return nil, err
	}
	br := bufio.NewReaderSize(rest, 64<<10)
	if limit < 0 {
		return readAtMost(ctx, br, 0, max)
	}
	var out []byte
	for range limit {
		for {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			chunk, err := br.ReadSlice('\n')
			if int64(len(out))+int64(len(chunk)) > max {
				return nil, &TooLargeError{Limit: max}
			}
			out = append(out, chunk...)
			if err == nil {
				break
			}
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
		}
	}
	return out, nil
}

// skipLines reads r past n newlines, a 64 KiB block at a time (counting the newlines of a
// block at once), and returns what follows them: the rest of the last block, then r. It
// returns nil without error when r ends first.
func skipLines(ctx context.Context, r io.Reader, n int) (io.Reader, error) {
	if n <= 0 {
		return r, nil
	}
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, err := r.Read(buf)
		block := buf[:k]
		if c := bytes.Count(block, newline); c < n {
			n -= c
		} else {
			for ; n > 0; n-- {
				block = block[bytes.IndexByte(block, '\n')+1:]
			}
			return io.MultiReader(bytes.NewReader(block), r), nil
		}
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

var newline = []byte{'\n'}
