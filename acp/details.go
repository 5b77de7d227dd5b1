package acp

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// What Details keeps of an agent's own words about an error: a few lines, each cut, so
// that an agent cannot fill a screen or a terminal with its error.
const (
	maxDetailLines = 4
	maxDetailLine  = 160
	// maxDataLines bounds the lines the data is split into before Details keeps a few:
	// enough to skip blank ones.
	maxDataLines = 4 * maxDetailLines
)

// Details returns what the agent itself said about the error, beyond what Describe says:
// the message of a refusal that Describe does not quote (a login refusal), then the
// error's data (a string's lines; an object's keys, sorted, as "key: value"; anything
// else as compact JSON). At most a few lines, each one line of text with control
// characters removed and cut with "…"; nil when the agent said nothing more.
func Details(err error) []string {
	var (
		auth *AuthRequiredError
		rpc  *RPCError
	)
	var lines []string
	switch {
	case errors.As(err, &auth):
		lines = append(lines, auth.Message)
		lines = append(lines, dataLines(auth.Data)...)
	case errors.As(err, &rpc):
		lines = dataLines(rpc.Data)
	default:
		return nil
	}
	var message string
	if rpc != nil {
		message = rpc.Message
	}
	var out []string
	for _, l := range lines {
		l = strings.TrimSpace(safetext.Snippet(safetext.Line(l), maxDetailLine))
		// A data that repeats the message says nothing more.
		if l == "" || l == message || slices.Contains(out, l) {
			continue
		}
		if len(out) == maxDetailLines {
			out[maxDetailLines-1] += " …"
			break
		}
		out = append(out, l)
	}
	return out
}

// dataLines writes a JSON-RPC error's data as lines, unsanitized.
func dataLines(raw json.RawMessage) []string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return nil
	}
	switch d := v.(type) {
	case string:
		return splitLines(d)
	case map[string]any:
		keys := make([]string, 0, len(d))
		for k := range d {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var lines []string
		for _, k := range keys {
			if d[k] == nil {
				continue
			}
			if len(lines) >= maxDataLines {
				break
			}
			for i, l := range splitLines(valueText(d[k])) {
				if i == 0 {
					l = k + ": " + l
				}
				lines = append(lines, l)
			}
		}
		return lines
	}
	return []string{valueText(v)}
}

// splitLines splits s into its first lines, at most maxDataLines of them (the last one
// holds the rest): a string of a million lines costs no more than a few.
func splitLines(s string) []string {
	return strings.SplitN(s, "\n", maxDataLines)
}

// valueText is a decoded JSON value as text: a string as it is, anything else as compact
// JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// withDetails is a one-line message followed by Details(err), for logs and Error().
func withDetails(msg string, err error) string {
	if d := Details(err); len(d) > 0 {
		return msg + ": " + strings.Join(d, "; ")
	}
	return msg
}
