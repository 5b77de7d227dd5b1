package convo

// DiffLine is one line of a unified diff as another view shows it: Op is ' ' (context),
// '-' (removed), '+' (added) or 'h' (a header, "--- path" or "@@ … @@", Text then being the
// whole line).
type DiffLine struct {
	Op   byte
	Text string
}

// UnifiedDiff returns the unified diff of the file at path from old to new (old nil for a
// new file), computed as a tool call's diff is in the conversation: the same bounded
// search, so a hostile diff costs no more here. The permission request shows it.
func UnifiedDiff(path string, old *string, new string) []DiffLine {
	in := unifiedDiff(path, old, new)
	out := make([]DiffLine, len(in))
	for i, l := range in {
		out[i] = DiffLine{Op: l.op, Text: l.text}
	}
	return out
}
