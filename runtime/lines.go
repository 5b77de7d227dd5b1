package runtime

import (
	"bufio"
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
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; n < line; n++ {
		for {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			_, err := br.ReadSlice('\n')
			if err == nil {
				break
			}
			if errors.Is(err, io.EOF) {
				return nil, nil
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				return nil, err
			}
		}
	}
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
