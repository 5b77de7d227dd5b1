package windowtest

import "strings"

// LongWord returns n bytes of one word with no space, as minified JavaScript, base64 or a
// JSON blob on one line look to a wrapper: the text of the long-word benchmarks.
func LongWord(n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[(i*7+i/64)%len(alphabet)]
	}
	return string(b)
}

// Words returns n bytes of prose on one line, words of 1 to 8 letters between spaces: the
// baseline of LongWord in the same benchmarks.
func Words(n int) string {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while agents stream markdown and tool calls into windows")
	var b strings.Builder
	b.Grow(n + 16)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[i%len(words)])
	}
	return b.String()[:n]
}
