package runtime

import (
	"strings"
	"testing"
)

// BenchmarkLogStderr measures how fast an agent's stderr is taken in: 32 KiB reads of
// 100-byte lines into a log with a file.
func BenchmarkLogStderr(b *testing.B) {
	logs := NewLogs(LogsOptions{Dir: b.TempDir(), FileSize: 1 << 20})
	w := newLineWriter(logs.Agent("alice"), "", 10)
	chunk := []byte(strings.Repeat(strings.Repeat("x", 99)+"\n", 32<<10/100))
	b.SetBytes(int64(len(chunk)))
	b.ReportAllocs()
	for b.Loop() {
		w.Write(chunk)
	}
	logs.Flush()
}

// BenchmarkProtected measures one protection check against the default patterns plus a
// few user ones, on a deep path.
func BenchmarkProtected(b *testing.B) {
	p := newProtector([]string{"AGENTS.md", "skills/**", "**/*.env", "conf/*/secret?.yaml", "agent.yaml"})
	path := "src/internal/deep/folder/with/many/levels/file.go"
	b.ReportAllocs()
	for b.Loop() {
		if p.match(path) {
			b.Fatal("matched")
		}
	}
}
