package config

import (
	"strconv"
	"strings"
)

// projectLineIndex remembers where keys are in a project agents file, so that each
// diagnostic can give a line. The TOML library does not expose key positions, so this is
// a best-effort scan of the text (0 when a key was not found): it understands table
// headers, key/value lines and multi-line strings, which is all an agents file holds.
type projectLineIndex struct {
	top    map[string]int   // first line of each top-level key
	agents []int            // line of each [[agent]] header, in order
	keys   []map[string]int // per [[agent]]: first line of each of its keys
}

func projectLines(text string) projectLineIndex {
	ix := projectLineIndex{top: map[string]int{}}
	const (
		inRoot = iota
		inAgent
		inOther
	)
	where := inRoot
	closer := "" // the delimiter of the multi-line string being skipped
	for n, line := range strings.Split(text, "\n") {
		lineNo := n + 1
		if closer != "" {
			if strings.Contains(line, closer) {
				closer = ""
			}
			continue
		}
		t := strings.TrimSpace(line)
		switch {
		case t == "" || t[0] == '#':
		case strings.HasPrefix(t, "[["):
			path := tomlKeyPath(strings.TrimPrefix(t, "[["), "]]")
			ix.noteTop(path, lineNo)
			where = inOther
			if len(path) == 1 && path[0] == "agent" {
				ix.agents = append(ix.agents, lineNo)
				ix.keys = append(ix.keys, map[string]int{})
				where = inAgent
			}
		case t[0] == '[':
			path := tomlKeyPath(t[1:], "]")
			ix.noteTop(path, lineNo)
			if len(path) > 1 && path[0] == "agent" {
				ix.noteAgentKey(path[1], lineNo)
			}
			where = inOther
		default:
			eq := strings.IndexByte(t, '=')
			if eq < 0 {
				continue
			}
			path := tomlKeyPath(t[:eq]+"=", "=")
			switch where {
			case inRoot:
				ix.noteTop(path, lineNo)
			case inAgent:
				if len(path) > 0 {
					ix.noteAgentKey(path[0], lineNo)
				}
			}
			closer = openMultiline(t[eq+1:])
		}
	}
	return ix
}

func (ix *projectLineIndex) noteTop(path []string, line int) {
	if len(path) > 0 {
		if _, ok := ix.top[path[0]]; !ok {
			ix.top[path[0]] = line
		}
	}
}

func (ix *projectLineIndex) noteAgentKey(key string, line int) {
	if len(ix.keys) == 0 {
		return
	}
	last := ix.keys[len(ix.keys)-1]
	if _, ok := last[key]; !ok {
		last[key] = line
	}
}

// topKeyLine is the first line of a top-level key, 0 when unknown.
func (ix projectLineIndex) topKeyLine(key string) int { return ix.top[key] }

// agentLine is the line of the index-th (1-based) [[agent]] header, 0 when unknown.
func (ix projectLineIndex) agentLine(index int) int {
	if index < 1 || index > len(ix.agents) {
		return 0
	}
	return ix.agents[index-1]
}

// keyLine is the line of key in the index-th (1-based) [[agent]], else that agent's line.
func (ix projectLineIndex) keyLine(index int, key string) int {
	if index >= 1 && index <= len(ix.keys) {
		if line, ok := ix.keys[index-1][key]; ok {
			return line
		}
	}
	return ix.agentLine(index)
}

// tomlKeyPath splits a dotted TOML key that ends at end ("]", "]]" or "="), unquoting
// quoted parts.
func tomlKeyPath(s, end string) []string {
	var path []string
	s = strings.TrimSpace(s)
	for s != "" && !strings.HasPrefix(s, end) {
		var part string
		switch s[0] {
		case '"', '\'':
			closing := strings.IndexByte(s[1:], s[0])
			if closing < 0 {
				return path
			}
			part = s[1 : closing+1]
			if s[0] == '"' {
				if u, err := strconv.Unquote(s[:closing+2]); err == nil {
					part = u
				}
			}
			s = s[closing+2:]
		default:
			stop := strings.IndexAny(s, ".\"' \t"+end[:1])
			if stop < 0 {
				stop = len(s)
			}
			if stop == 0 && s[0] != '.' {
				return path // not a key: nothing more to learn from this line
			}
			part = s[:stop]
			s = s[stop:]
		}
		path = append(path, part)
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, ".") {
			s = strings.TrimLeft(s[1:], " \t")
		}
	}
	return path
}

// openMultiline returns the delimiter of a multi-line string that value opens and does
// not close on the same line, or "".
func openMultiline(value string) string {
	for _, d := range []string{`"""`, `'''`} {
		if i := strings.Index(value, d); i >= 0 && !strings.Contains(value[i+3:], d) {
			return d
		}
	}
	return ""
}
