package acp

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestTraceLinesNeverInterleave writes from many goroutines at once, with messages
// longer than the trace's buffer, and checks that every line is whole.
func TestTraceLinesNeverInterleave(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.log")
	tr := OpenTrace(path)
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			agent := traceName(fmt.Sprintf("agent %d", w))
			for i := range each {
				size := 10
				if i%50 == 0 {
					size = 300 << 10 // over the buffer
				}
				msg := fmt.Sprintf(`{"w":%d,"i":%d,"pad":"%s"}`, w, i, strings.Repeat("p", size))
				if i%2 == 0 {
					tr.sent(agent, []byte(msg))
				} else {
					tr.received(agent, []byte(msg))
				}
			}
			tr.skipped(agent, 20<<20, 16<<20)
		}()
	}
	wg.Wait()
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	seen := map[string]int{}
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), " ", 4)
		if len(parts) != 4 {
			t.Fatalf("line %.80q", sc.Text())
		}
		agent, arrow, msg := parts[1], parts[2], parts[3]
		if !strings.HasPrefix(agent, "agent_") || (arrow != "->" && arrow != "<-") {
			t.Fatalf("line %.80q", sc.Text())
		}
		if strings.HasPrefix(msg, "!skipped ") {
			if msg != "!skipped 20971520 bytes (over the 16777216-byte limit)" {
				t.Errorf("marker %q", msg)
			}
			seen[agent+" skipped"]++
			continue
		}
		var w, i int
		var pad string
		if _, err := fmt.Sscanf(msg, `{"w":%d,"i":%d,"pad":"%s`, &w, &i, &pad); err != nil {
			t.Fatalf("message %.80q: %v", msg, err)
		}
		wantSize := 10
		if i%50 == 0 {
			wantSize = 300 << 10
		}
		if agent != fmt.Sprintf("agent_%d", w) || pad != strings.Repeat("p", wantSize)+`"}` {
			t.Fatalf("line of writer %d, message %d, is not whole", w, i)
		}
		seen[agent]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		if n := seen[fmt.Sprintf("agent_%d", w)]; n != each || seen[fmt.Sprintf("agent_%d skipped", w)] != 1 {
			t.Errorf("writer %d: %d lines", w, n)
		}
	}
}
