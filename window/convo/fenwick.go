package convo

// fenwick keeps the row count of every entry so that the rows before an entry, and the entry
// that holds a given row, cost O(log n) to find, and a changed count O(log n) to record.
type fenwick struct {
	t     []int // t[i] (1-based) sums the counts of entries (i - i&-i, i]
	vals  []int // the counts themselves
	total int
}

// reset builds the tree over counts in O(n).
func (f *fenwick) reset(counts []int) {
	n := len(counts)
	f.t = make([]int, n+1, n+n/4+1)
	f.vals = append(f.vals[:0], counts...) // counts may be f.vals itself, grown
	f.total = 0
	for i, c := range counts {
		f.total += c
		f.t[i+1] += c
		if j := (i + 1) + (i+1)&-(i+1); j <= n {
			f.t[j] += f.t[i+1]
		}
	}
}

// push appends an entry of count c.
func (f *fenwick) push(c int) {
	if len(f.t) == 0 {
		f.t = append(f.t, 0) // t[0] is unused: the tree is 1-based
	}
	f.vals = append(f.vals, c)
	i := len(f.vals) // 1-based index of the new entry
	// t[i] covers (i - lowbit(i), i]: c plus the entries before it in that range.
	f.t = append(f.t, c+f.prefix(i-1)-f.prefix(i-i&-i))
	f.total += c
}

// set changes entry i's count to c.
func (f *fenwick) set(i, c int) {
	d := c - f.vals[i]
	if d == 0 {
		return
	}
	f.vals[i] = c
	f.total += d
	for j := i + 1; j < len(f.t); j += j & -j {
		f.t[j] += d
	}
}

// prefix returns the sum of the counts of entries [0, i).
func (f *fenwick) prefix(i int) int {
	s := 0
	for ; i > 0; i -= i & -i {
		s += f.t[i]
	}
	return s
}

// find returns the entry that holds row (0 ≤ row < total) and the row's index within it;
// entries of no rows are skipped.
func (f *fenwick) find(row int) (entry, offset int) {
	pos := 0
	step := 1
	for step*2 < len(f.t) {
		step *= 2
	}
	rem := row
	for ; step > 0; step /= 2 {
		if next := pos + step; next < len(f.t) && f.t[next] <= rem {
			pos = next
			rem -= f.t[next]
		}
	}
	return pos, rem // pos entries hold at most row rows; entry pos (0-based) holds the row
}
