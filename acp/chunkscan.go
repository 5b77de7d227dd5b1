package acp

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// The hot path's scanner: a session/update notification whose update is a message,
// thought or user chunk of text is read in one pass over the line, with no reflection
// and one allocation (the text). It recognizes only lines that encoding/json would
// decode without error into fastMessage as such a chunk, with the same session, kind
// and text (FuzzScanChunk checks it); on anything else — another message, an escaped
// key, a null, a type it does not expect, invalid JSON — it gives up, and the line takes
// the encoding/json path, which decides what it is.

// maxScanDepth bounds the nesting the scanner follows before giving up.
const maxScanDepth = 512

// scannedChunk is what scanChunk extracts.
type scannedChunk struct {
	sessionID []byte // valid until the line is read over
	kind      string // one of the chunk kinds
	text      string
}

type chunkScanner struct {
	b []byte
	i int
	// buf receives unescaped strings.
	buf []byte
	// typeText and sawText say whether the content's type was "text" and whether it
	// had a text.
	typeText, sawText bool
}

// scanChunk reads a text chunk notification, or reports false.
func scanChunk(line []byte) (scannedChunk, bool) {
	s := chunkScanner{b: line}
	var out scannedChunk
	methodOK, haveMethod := false, false
	ok := s.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			return false // a request or a response
		case "method":
			v, ok := s.stringValue()
			if !ok {
				return false
			}
			haveMethod, methodOK = true, string(v) == "session/update"
			return true
		case "params":
			return s.params(&out)
		}
		if foldsTo(key, "id", "method", "params") {
			return false
		}
		return s.skip(0)
	})
	if !ok || !haveMethod || !methodOK || out.kind == "" || !s.typeText || !s.sawText {
		return scannedChunk{}, false
	}
	s.ws()
	if s.i != len(s.b) {
		return scannedChunk{}, false
	}
	return out, true
}

// params reads the params object.
func (s *chunkScanner) params(out *scannedChunk) bool {
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "sessionId":
			raw, escaped, ok := s.str()
			if !ok {
				return false
			}
			if escaped || !utf8.Valid(raw) {
				raw = unquote(nil, raw) // not in s.buf, which is reused
			}
			out.sessionID = raw
			return true
		case "update":
			return s.update(out)
		}
		if foldsTo(key, "sessionId", "update") {
			return false
		}
		return s.skip(1)
	})
}

// update reads the update object.
func (s *chunkScanner) update(out *scannedChunk) bool {
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "sessionUpdate":
			v, ok := s.stringValue()
			if !ok {
				return false
			}
			switch string(v) {
			case AgentMessageChunk:
				out.kind = AgentMessageChunk
			case AgentThoughtChunk:
				out.kind = AgentThoughtChunk
			case UserMessageChunk:
				out.kind = UserMessageChunk
			default:
				return false
			}
			return true
		case "content":
			return s.content(out)
		}
		if foldsTo(key, "sessionUpdate", "content") {
			return false
		}
		return s.skip(2)
	})
}

// content reads the content block, which must be text.
func (s *chunkScanner) content(out *scannedChunk) bool {
	return s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			v, ok := s.stringValue()
			if !ok {
				return false
			}
			s.typeText = string(v) == "text"
			return true
		case "text":
			v, ok := s.stringValue()
			if !ok {
				return false
			}
			out.text = string(v)
			s.sawText = true
			return true
		}
		if foldsTo(key, "type", "text") {
			return false
		}
		return s.skip(3)
	})
}

// object reads an object, calling field for each key with the scanner on its value.
func (s *chunkScanner) object(field func(key []byte) bool) bool {
	s.ws()
	if !s.eat('{') {
		return false
	}
	s.ws()
	if s.eat('}') {
		return true
	}
	for {
		s.ws()
		key, escaped, ok := s.str()
		if !ok || escaped {
			return false
		}
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		if !field(key) {
			return false
		}
		s.ws()
		if s.eat(',') {
			continue
		}
		return s.eat('}')
	}
}

// stringValue reads a string value, unescaped (into s.buf when it has escapes).
func (s *chunkScanner) stringValue() ([]byte, bool) {
	raw, escaped, ok := s.str()
	if !ok {
		return nil, false
	}
	if !escaped && utf8.Valid(raw) {
		return raw, true
	}
	s.buf = unquote(s.buf[:0], raw)
	return s.buf, true
}

// str reads a string, validating it, and returns its raw content.
func (s *chunkScanner) str() (raw []byte, escaped, ok bool) {
	if !s.eat('"') {
		return nil, false, false
	}
	start := s.i
	for s.i < len(s.b) {
		// Most of a string is bytes that need no look: skip them eight at a time, then one.
		for s.i+8 <= len(s.b) && !special8(binary.LittleEndian.Uint64(s.b[s.i:])) {
			s.i += 8
		}
		for s.i < len(s.b) && plainJSON[s.b[s.i]] {
			s.i++
		}
		if s.i == len(s.b) {
			break
		}
		c := s.b[s.i]
		switch {
		case c == '"':
			raw = s.b[start:s.i]
			s.i++
			return raw, escaped, true
		case c == '\\':
			escaped = true
			if s.i+1 >= len(s.b) {
				return nil, false, false
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.b) || !isHex4(s.b[s.i+2:s.i+6]) {
					return nil, false, false
				}
				s.i += 6
			default:
				return nil, false, false
			}
		case c < 0x20:
			return nil, false, false
		default:
			s.i++
		}
	}
	return nil, false, false
}

// plainJSON tells the bytes a JSON string holds as they are: all but '"', '\\' and the
// control characters.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// special8 reports whether any of the eight bytes in x is '"', '\\' or a control character:
// a byte equal to 0 in x^'"' or x^'\\', or below 0x20 in x. Each term sets the high bit of
// such a byte; it may set that of a byte after one too (a borrow), never when there is none.
func special8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, b := x^(ones*'"'), x^(ones*'\\')
	return ((q-ones)&^q|(b-ones)&^b|(x-ones*0x20)&^x)&highs != 0
}

// skip reads and validates any value.
func (s *chunkScanner) skip(depth int) bool {
	if depth > maxScanDepth || s.i >= len(s.b) {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, _, ok := s.str()
		return ok
	case c == '{':
		return s.object(func([]byte) bool { return s.skip(depth + 1) })
	case c == '[':
		s.i++
		s.ws()
		if s.eat(']') {
			return true
		}
		for {
			s.ws()
			if !s.skip(depth + 1) {
				return false
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			return s.eat(']')
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		return s.number()
	}
}

func (s *chunkScanner) literal(lit string) bool {
	if len(s.b)-s.i < len(lit) || string(s.b[s.i:s.i+len(lit)]) != lit {
		return false
	}
	s.i += len(lit)
	return true
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *chunkScanner) number() bool {
	s.eat('-')
	switch {
	case s.eat('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.eat('.') && !s.digits() {
		return false
	}
	if s.eat('e') || s.eat('E') {
		if !s.eat('+') {
			s.eat('-')
		}
		if !s.digits() {
			return false
		}
	}
	return true
}

// digits reads one or more digits.
func (s *chunkScanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

func (s *chunkScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *chunkScanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// unquote appends the unescaped content of a validated string to dst, as
// encoding/json does: escapes decoded, a lone surrogate and each byte of invalid UTF-8
// replaced by U+FFFD.
func unquote(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		// A run of ASCII without escapes, copied at once.
		j := i
		for j < len(raw) && raw[j] != '\\' && raw[j] < utf8.RuneSelf {
			j++
		}
		dst = append(dst, raw[i:j]...)
		if i = j; i == len(raw) {
			break
		}
		c := raw[i]
		switch {
		case c == '\\':
			switch raw[i+1] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(raw[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, hex4(raw[i+2:i+6])); dec != utf8.RuneError {
							dst = utf8.AppendRune(dst, dec)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, raw[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			dst = utf8.AppendRune(dst, r)
			i += size
		}
	}
	return dst
}

// foldsTo reports whether key could match one of names the way encoding/json matches
// keys to fields, without regard to case, without being it exactly. A key that is not
// ASCII is assumed to (Unicode folding maps "ſ" to "s", "K" to "k").
func foldsTo(key []byte, names ...string) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return true
		}
	}
	for _, n := range names {
		if len(key) == len(n) && string(key) != n && equalFoldASCII(key, n) {
			return true
		}
	}
	return false
}

func equalFoldASCII(b []byte, s string) bool {
	for i := range len(b) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
