package acp

import (
	"bufio"
	"errors"
	"io"
)

// DefaultMaxLine is the longest line (message) a connection reads by default: 16 MiB.
const DefaultMaxLine = 16 << 20

// readBufferSize is the reader's buffer: a line that fits is returned without a copy.
const readBufferSize = 64 << 10

// keptPrefix is how much of an over-long line is kept, to learn which request it
// answered.
const keptPrefix = 512

// lineReader splits the agent's output into lines without ever holding a line longer
// than max: such a line is skipped while it is read, and only its first bytes are kept.
type lineReader struct {
	r   *bufio.Reader
	max int
	// long accumulates a line longer than the reader's buffer.
	long []byte
	// prefix holds the first bytes of the last skipped line.
	prefix []byte
	// eof is set once the underlying reader has ended.
	eof bool
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBufferSize), max: max}
}

// line is one line of the agent's output.
type line struct {
	// data is the line without its end of line; valid until the next call to next. For
	// a skipped line, it holds only the first bytes.
	data []byte
	// skipped is true when the line was longer than the limit.
	skipped bool
	// size is the full length of a skipped line.
	size int64
}

// next returns the next line, or an error (io.EOF at the end of the output).
func (lr *lineReader) next() (line, error) {
	if lr.eof {
		return line{}, io.EOF
	}
	frag, err := lr.r.ReadSlice('\n')
	switch {
	case err == nil:
		return lr.short(frag)
	case errors.Is(err, bufio.ErrBufferFull):
		return lr.readLong(frag)
	case err == io.EOF && len(frag) > 0:
		// The last line has no end of line.
		lr.eof = true
		return lr.short(frag)
	default:
		return line{}, err
	}
}

// short returns a line that fit in the buffer.
func (lr *lineReader) short(frag []byte) (line, error) {
	data := trimEOL(frag)
	if len(data) > lr.max {
		lr.prefix = append(lr.prefix[:0], data[:min(len(data), keptPrefix)]...)
		return line{data: lr.prefix, skipped: true, size: int64(len(data))}, nil
	}
	return line{data: data}, nil
}

// readLong reads a line longer than the buffer: whole if it stays within the limit,
// skipped otherwise.
func (lr *lineReader) readLong(first []byte) (line, error) {
	if cap(lr.long) > 4*readBufferSize {
		// Do not keep the memory of a previous long line.
		lr.long = nil
	}
	lr.long = append(lr.long[:0], first...)
	for {
		frag, err := lr.r.ReadSlice('\n')
		if len(lr.long)+len(frag) > lr.max+2 {
			// +2: the end of line (\r\n at most) does not count against the limit.
			return lr.skip(frag, err)
		}
		lr.long = append(lr.long, frag...)
		switch {
		case err == nil:
			return lr.finishLong(), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			lr.eof = true
			return lr.finishLong(), nil
		default:
			return line{}, err
		}
	}
}

// finishLong returns the accumulated line, or skips it when its end made it too long.
func (lr *lineReader) finishLong() line {
	data := trimEOL(lr.long)
	if len(data) > lr.max {
		lr.prefix = append(lr.prefix[:0], data[:min(len(data), keptPrefix)]...)
		lr.long = nil
		return line{data: lr.prefix, skipped: true, size: int64(len(data))}
	}
	return line{data: data}
}

// skip keeps the first bytes of the accumulated line and discards the rest of it, frag
// (read with err) being its next piece.
func (lr *lineReader) skip(frag []byte, err error) (line, error) {
	lr.prefix = append(lr.prefix[:0], lr.long[:min(len(lr.long), keptPrefix)]...)
	size := int64(len(lr.long))
	lr.long = nil
	for {
		size += int64(len(frag))
		switch {
		case err == nil:
			size -= int64(len(frag) - len(trimEOL(frag)))
			return line{data: lr.prefix, skipped: true, size: size}, nil
		case errors.Is(err, bufio.ErrBufferFull):
			frag, err = lr.r.ReadSlice('\n')
		case err == io.EOF:
			lr.eof = true
			return line{data: lr.prefix, skipped: true, size: size}, nil
		default:
			return line{}, err
		}
	}
}

// trimEOL removes a final "\n" or "\r\n".
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}
