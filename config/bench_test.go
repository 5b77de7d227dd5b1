package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileDocuments are files of about size bytes, built to make each step of the load
// work hard: thousands of mistakes, of agents, of channel members.
func hostileDocuments(size int) map[string][]byte {
	var many, members, dupes, syntax, nested strings.Builder
	many.WriteString("version: 1\nagents:\n")
	for i := 0; many.Len() < size-200; i++ {
		fmt.Fprintf(&many, "  - {name: A%d, comand: x, runtime: {type: local, container: c, workspacePath: w}, args: 3}\n", i)
	}
	members.WriteString("version: 1\nagents:\n")
	for i := 0; i < size/200; i++ {
		fmt.Fprintf(&members, "  - {name: a%d, command: /bin/sh}\n", i)
	}
	members.WriteString("channels:\n  - name: x\n    agents: [")
	for i := 0; members.Len() < size-10; i++ {
		fmt.Fprintf(&members, "b%d, ", i)
	}
	members.WriteString("]\n")
	dupes.WriteString("version: 1\nagents: []\nchannels:\n")
	for i := 0; dupes.Len() < size-100; i++ {
		fmt.Fprintf(&dupes, "  - {name: Same}\n")
	}
	syntax.WriteString("version: 1\nagents:\n")
	for syntax.Len() < min(size, maxRefineSize)-100 {
		syntax.WriteString("  - {name: a, command: /bin/sh}\n")
	}
	syntax.WriteString("   bad: indentation\n")
	nested.WriteString("version: 1\nagents: ")
	nested.WriteString(strings.Repeat("[", 5000))
	return map[string][]byte{
		"many mistakes":    []byte(many.String()),
		"missing members":  []byte(members.String()),
		"same channels":    []byte(dupes.String()),
		"late syntax":      []byte(syntax.String()),
		"deeply nested":    []byte(nested.String()),
		"largest comment":  []byte("version: 1\nagents: []\n#" + strings.Repeat("x", size-30) + "\n"),
		"one long scalar":  []byte("version: 1\nagents: []\nui: {theme: " + strings.Repeat("x", size-40) + "}\n"),
		"many short lines": []byte(strings.Repeat("\n", size-30) + "version: 1\nagents: [\n"),
	}
}

// TestHostileDocumentsStayBounded loads each hostile document: no panic, the invariants,
// at most maxDiagnostics+1 diagnostics. The time each takes is measured by
// BenchmarkHostile at the largest size, not asserted here; the test uses smaller files to
// stay quick under the race detector.
func TestHostileDocumentsStayBounded(t *testing.T) {
	t.Setenv("LANG", "C")
	t.Setenv("PATH", t.TempDir())
	path := filepath.Join(t.TempDir(), "config.yaml")
	for name, doc := range hostileDocuments(maxFileSize / 32) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			cfg, d := Parse(path, doc)
			t.Logf("%s: %d bytes, %d diagnostics, %v", name, len(doc), len(d), time.Since(start))
			checkInvariants(t, path, cfg, d)
			if len(d) > maxDiagnostics+1 {
				t.Errorf("%d diagnostics", len(d))
			}
		})
	}
}

func BenchmarkHostile(b *testing.B) {
	b.Setenv("LANG", "C")
	path := filepath.Join(b.TempDir(), "config.yaml")
	for name, doc := range hostileDocuments(maxFileSize) {
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				Parse(path, doc)
			}
		})
	}
}

func BenchmarkParseSpecExample(b *testing.B) {
	b.Setenv("LANG", "C")
	doc := []byte(strings.Replace(specFile, "%s", "fr", 1))
	path := filepath.Join(b.TempDir(), "config.yaml")
	for b.Loop() {
		Parse(path, doc)
	}
}
