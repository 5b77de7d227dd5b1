package config

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// yamlText is a YAML file as lines, to insert text at the places yaml.v3's node positions
// (1-based lines, 1-based columns counted in characters) point to.
type yamlText struct {
	data   []byte
	starts []int  // offset of each line's first byte
	nl     string // the file's line ending: "\r\n" when it uses it, else "\n"
}

func newYAMLText(data []byte) *yamlText {
	t := &yamlText{data: data, starts: []int{0}, nl: "\n"}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			t.starts = append(t.starts, i+1)
		}
	}
	if bytes.Contains(data, []byte("\r\n")) {
		t.nl = "\r\n"
	}
	return t
}

func (t *yamlText) lines() int { return len(t.starts) }

// afterLine is the offset just past line n's line ending (the end of the file for the
// last line).
func (t *yamlText) afterLine(n int) int {
	if n >= len(t.starts) {
		return len(t.data)
	}
	return t.starts[n]
}

// contentEnd is the offset where line n's text ends, before its line ending.
func (t *yamlText) contentEnd(n int) int {
	end := t.afterLine(n)
	if end > t.starts[n-1] && t.data[end-1] == '\n' {
		end--
	}
	if end > t.starts[n-1] && t.data[end-1] == '\r' {
		end--
	}
	return end
}

// line is line n's text, without its line ending.
func (t *yamlText) line(n int) []byte { return t.data[t.starts[n-1]:t.contentEnd(n)] }

// offsetAt converts a yaml.v3 position to a byte offset.
func (t *yamlText) offsetAt(line, column int) int {
	if line < 1 || line > len(t.starts) {
		return -1
	}
	off, end := t.starts[line-1], t.contentEnd(line)
	for c := 1; c < column && off < end; c++ {
		_, size := utf8.DecodeRune(t.data[off:end])
		off += size
	}
	return off
}

// indented returns block's lines (ending with "\n") each behind indent spaces, with the
// file's line ending.
func (t *yamlText) indented(block string, indent int) string {
	var b strings.Builder
	pad := strings.Repeat(" ", indent)
	for _, l := range strings.Split(strings.TrimRight(block, "\n"), "\n") {
		if l != "" {
			b.WriteString(pad + l)
		}
		b.WriteString(t.nl)
	}
	return b.String()
}

// endsOpen reports whether the file's last line has no line ending.
func (t *yamlText) endsOpen() bool {
	return len(t.data) > 0 && t.data[len(t.data)-1] != '\n'
}

func (t *yamlText) splice(at int, text string) []byte {
	out := make([]byte, 0, len(t.data)+len(text))
	out = append(out, t.data[:at]...)
	out = append(out, text...)
	return append(out, t.data[at:]...)
}

// addAgentsKey appends an agents key, holding block, at the end of the file; col is the
// root keys' column (0-based).
func (t *yamlText) addAgentsKey(col int, block string) []byte {
	text := strings.Repeat(" ", col) + "agents:" + t.nl + t.indented(block, col+2)
	if t.endsOpen() {
		text = t.nl + text
	}
	return t.splice(len(t.data), text)
}

// intoBlockList inserts block after the last line that belongs to the block list seq:
// the lines of its last item, and the comments after it indented more than its key (such
// as commented-out examples), up to next, the key that follows agents (nil when agents
// is the last key).
func (t *yamlText) intoBlockList(key, seq, next *yaml.Node, block string) []byte {
	last := seq.Content[len(seq.Content)-1]
	keyCol, dashCol := key.Column-1, t.dashColumn(last, seq.Column-1)
	end := t.lines() + 1
	if next != nil {
		end = next.Line
	}
	after := last.Line
	for n := last.Line + 1; n < end; n++ {
		l := t.line(n)
		if bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) {
			break // the end of the document
		}
		trimmed := bytes.TrimLeft(l, " \t")
		if len(trimmed) == 0 {
			continue
		}
		if trimmed[0] == '#' && len(l)-len(trimmed) <= keyCol {
			continue
		}
		after = n
	}
	text := t.indented(block, dashCol)
	if len(seq.Content) > 1 && t.blankBefore(t.dashLine(last, dashCol)) {
		text = t.nl + text // the items are separated by a blank line: so is this one
	}
	at := t.afterLine(after)
	if at == len(t.data) && t.endsOpen() {
		text = t.nl + text
	}
	return t.splice(at, text)
}

// dashColumn finds the column (0-based) of item's dash: on its line, left of it, or
// alone on the line above. seq.Column is not always it: with an anchor (agents: &a), it
// is the anchor's.
func (t *yamlText) dashColumn(item *yaml.Node, fallback int) int {
	if item.Line < 1 || item.Line > t.lines() {
		return fallback
	}
	l := t.line(item.Line)
	for i := min(item.Column-2, len(l)-1); i >= 0; i-- {
		if l[i] == '-' && isBlank(l[:i]) {
			return i
		}
		if l[i] != ' ' && l[i] != '\t' {
			break
		}
	}
	if item.Line > 1 {
		above := t.line(item.Line - 1)
		if trimmed := bytes.TrimSpace(above); len(trimmed) == 1 && trimmed[0] == '-' {
			return bytes.IndexByte(above, '-')
		}
	}
	return fallback
}

// dashLine finds the line of item's dash: item.Line, or the line above when the dash
// stands alone.
func (t *yamlText) dashLine(item *yaml.Node, dashCol int) int {
	for n := item.Line; n >= 1 && n > item.Line-2; n-- {
		l := t.line(n)
		if len(l) > dashCol && l[dashCol] == '-' && isBlank(l[:dashCol]) {
			return n
		}
	}
	return item.Line
}

func (t *yamlText) blankBefore(n int) bool {
	return n > 1 && isBlank(t.line(n-1))
}

// intoFlowList adds the item to a list written in flow style. An empty list under a
// block mapping becomes a block list; otherwise the item goes before the closing bracket,
// in flow style.
func (t *yamlText) intoFlowList(key, seq *yaml.Node, rootFlow bool, block string, item *yaml.Node) ([]byte, error) {
	open := t.offsetAt(seq.Line, seq.Column)
	// An anchor or a tag may stand before the bracket (agents: &a []).
	for open >= 0 && open < len(t.data) && t.data[open] != '[' && t.data[open] != '\n' {
		open++
	}
	if open < 0 || open >= len(t.data) || t.data[open] != '[' {
		return nil, errors.New("cannot find where the agents list starts")
	}
	closing := matchFlowEnd(t.data, open)
	if closing < 0 {
		return nil, errors.New("cannot find where the agents list ends")
	}
	if len(seq.Content) == 0 && !rootFlow {
		head := bytes.TrimRight(t.data[:open], " \t")
		closeLine := t.lineOf(closing)
		rest := t.data[closing+1 : t.contentEnd(closeLine)]
		out := make([]byte, 0, len(t.data)+len(block)*2)
		out = append(out, head...)
		out = append(out, rest...)
		out = append(out, t.nl...)
		out = append(out, t.indented(block, key.Column-1+2)...)
		return append(out, t.data[t.afterLine(closeLine):]...), nil
	}
	flow, err := yamlFlow(item)
	if err != nil {
		return nil, err
	}
	if len(seq.Content) == 0 {
		return t.splice(closing, flow), nil
	}
	j := closing - 1
	for j > open && strings.IndexByte(" \t\r\n", t.data[j]) >= 0 {
		j--
	}
	comma := ", "
	if t.data[j] == ',' {
		comma = " "
	}
	if bytes.IndexByte(t.data[j:closing], '\n') >= 0 {
		// One item per line: the new one goes on its own line, indented like the last.
		l := t.line(t.lineOf(j))
		indent := string(l[:len(l)-len(bytes.TrimLeft(l, " \t"))])
		comma = strings.TrimRight(comma, " ") + t.nl + indent
		if t.data[j] == ',' {
			comma = t.nl + indent
		}
	}
	return t.splice(j+1, comma+flow), nil
}

// lineOf is the 1-based line of a byte offset.
func (t *yamlText) lineOf(off int) int {
	n := 1
	for n < len(t.starts) && t.starts[n] <= off {
		n++
	}
	return n
}

// intoNull turns "agents:" (or "agents: ~", "agents: null") into a block list holding
// the item.
func (t *yamlText) intoNull(key, val *yaml.Node, block string) ([]byte, error) {
	head := t.data[:t.contentEnd(key.Line)]
	var rest []byte
	if val.Value != "" {
		if val.Line != key.Line {
			return nil, errors.New("agents has an empty value on another line")
		}
		off := t.offsetAt(val.Line, val.Column)
		head = bytes.TrimRight(t.data[:off], " \t")
		rest = t.data[off+len(val.Value) : t.contentEnd(key.Line)]
	}
	out := make([]byte, 0, len(t.data)+len(block)*2)
	out = append(out, head...)
	out = append(out, rest...)
	out = append(out, t.nl...)
	out = append(out, t.indented(block, key.Column-1+2)...)
	return append(out, t.data[t.afterLine(key.Line):]...), nil
}

// matchFlowEnd returns the offset of the bracket that closes the flow collection opening
// at open, skipping quoted texts and comments; -1 when there is none.
func matchFlowEnd(data []byte, open int) int {
	depth := 0
	prev := byte('[') // the last significant byte: a quote only opens a text after one of [{,:
	for i := open; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i
			}
		case (c == '"' || c == '\'') && strings.IndexByte("[{,:", prev) >= 0:
			i = skipQuoted(data, i)
			if i < 0 {
				return -1
			}
		case c == '#' && (i == 0 || strings.IndexByte(" \t\r\n", data[i-1]) >= 0):
			for i < len(data) && data[i] != '\n' {
				i++
			}
			continue
		}
		if strings.IndexByte(" \t\r\n", c) < 0 {
			prev = c
		}
	}
	return -1
}

// skipQuoted returns the offset of the quote that closes the text opening at i.
func skipQuoted(data []byte, i int) int {
	q := data[i]
	for j := i + 1; j < len(data); j++ {
		switch {
		case q == '"' && data[j] == '\\':
			j++
		case data[j] == q && q == '\'' && j+1 < len(data) && data[j+1] == '\'':
			j++
		case data[j] == q:
			return j
		}
	}
	return -1
}
