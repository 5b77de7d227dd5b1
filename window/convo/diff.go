package convo

import (
	"strconv"
	"strings"
)

// A tool call's diff is shown as a unified diff with diffContext lines of context, computed
// with Myers' algorithm on lines. Past diffMaxEdits edits, or diffMaxLines changed lines, the
// search stops and the changed middle is shown as removed then added: still a correct diff,
// only longer, and it keeps a hostile tool call from costing more than a few milliseconds.
const (
	diffContext  = 3
	diffMaxEdits = 200
	diffMaxLines = 20_000
)

// diffLine is one line of a unified diff: op is ' ', '-', '+', or 'h' for a header (the
// text is then the whole line, "--- path" or "@@ … @@").
type diffLine struct {
	op   byte
	text string
}

// splitLines splits text into its lines; a final newline ends the last line, it does not
// start another; "" has no lines.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// unifiedDiff returns the unified diff of a file at path from old to new; old is nil for a
// new file.
func unifiedDiff(path string, old *string, new string) []diffLine {
	from := "--- " + path
	var a []string
	if old == nil {
		from = "--- /dev/null"
	} else {
		a = splitLines(*old)
	}
	b := splitLines(new)
	out := []diffLine{{'h', from}, {'h', "+++ " + path}}
	ops := diffOps(a, b)
	return appendHunks(out, ops)
}

// diffOps returns the edit script from a to b, every line of both in order.
func diffOps(a, b []string) []diffLine {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffLine, 0, len(a)+len(b)-pre-suf)
	for _, l := range a[:pre] {
		ops = append(ops, diffLine{' ', l})
	}
	ops = appendMiddle(ops, a[pre:len(a)-suf], b[pre:len(b)-suf])
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffLine{' ', l})
	}
	return ops
}

// appendMiddle appends the shortest edit script from a to b (Myers), or all of a removed and
// all of b added when that is too long to find.
func appendMiddle(ops []diffLine, a, b []string) []diffLine {
	n, m := len(a), len(b)
	if n == 0 || m == 0 || n+m > diffMaxLines {
		return appendReplace(ops, a, b)
	}
	maxD := min(n+m, diffMaxEdits)
	off := maxD + 1
	v := make([]int32, 2*maxD+3)
	var trace [][]int32 // trace[d] holds v[-d..d] as it was when step d began
	for d := 0; d <= maxD; d++ {
		snap := make([]int32, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				return appendPath(ops, a, b, trace)
			}
		}
	}
	return appendReplace(ops, a, b)
}

// appendPath walks the trace back from the end and appends the script it found.
func appendPath(ops []diffLine, a, b []string, trace [][]int32) []diffLine {
	var rev []diffLine
	x, y := len(a), len(b)
	for d := len(trace) - 1; d >= 0; d-- {
		snap := trace[d] // v[-d..d] at the start of step d: index k+d
		at := func(k int) int {
			if k < -d || k > d {
				return -1
			}
			return int(snap[k+d])
		}
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := 0
		if d > 0 {
			px = at(pk)
		}
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffLine{' ', a[x]})
		}
		if d == 0 {
			break
		}
		if x == px {
			y--
			rev = append(rev, diffLine{'+', b[y]})
		} else {
			x--
			rev = append(rev, diffLine{'-', a[x]})
		}
	}
	for i := len(rev) - 1; i >= 0; i-- {
		ops = append(ops, rev[i])
	}
	return ops
}

func appendReplace(ops []diffLine, a, b []string) []diffLine {
	for _, l := range a {
		ops = append(ops, diffLine{'-', l})
	}
	for _, l := range b {
		ops = append(ops, diffLine{'+', l})
	}
	return ops
}

// appendHunks appends the hunks of an edit script: each change with diffContext lines of
// context around it, changes closer than twice that sharing a hunk.
func appendHunks(out, ops []diffLine) []diffLine {
	i := 0
	counted, oldSeen, newSeen := 0, 0, 0 // the lines of ops[:counted], old and new
	for {
		for i < len(ops) && ops[i].op == ' ' {
			i++
		}
		if i == len(ops) {
			return out
		}
		start := max(0, i-diffContext)
		end := i
		for end < len(ops) {
			if ops[end].op != ' ' {
				end++
				continue
			}
			j := end
			for j < len(ops) && ops[j].op == ' ' {
				j++
			}
			if j == len(ops) || j-end > 2*diffContext {
				end = min(end+diffContext, j)
				break
			}
			end = j
		}
		oldAt, newAt := countBefore(ops[counted:start])
		oldAt, newAt = oldAt+oldSeen, newAt+newSeen
		oldSeen, newSeen, counted = oldAt, newAt, start
		oldN, newN := 0, 0
		for _, o := range ops[start:end] {
			if o.op != '+' {
				oldN++
			}
			if o.op != '-' {
				newN++
			}
		}
		out = append(out, diffLine{'h', "@@ -" + hunkRange(oldAt, oldN) + " +" + hunkRange(newAt, newN) + " @@"})
		out = append(out, ops[start:end]...)
		i = end
	}
}

// countBefore counts the old and the new lines of ops.
func countBefore(ops []diffLine) (old, new int) {
	for _, o := range ops {
		if o.op != '+' {
			old++
		}
		if o.op != '-' {
			new++
		}
	}
	return old, new
}

// hunkRange is "start,count" of a hunk: start is 1-based, and for an empty range it is the
// line after which the range sits.
func hunkRange(before, n int) string {
	start := before + 1
	if n == 0 {
		start = before
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}
