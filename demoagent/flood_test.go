package demoagent

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkFlood measures how fast /flood writes chunks: the agent must outrun any client
// benchmarked against it.
func BenchmarkFlood(b *testing.B) {
	const n = 200_000
	const in = `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}` + "\n"
	for b.Loop() {
		inR, inW := io.Pipe()
		out := &floodSink{sessionSeen: make(chan string, 1), done: make(chan struct{})}
		errc := make(chan error, 1)
		go func() { errc <- Run(context.Background(), inR, out, Options{StateDir: "-"}) }()
		io.WriteString(inW, in)
		sid := <-out.sessionSeen
		fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"/flood %d"}]}}`+"\n", sid, n)
		<-out.done
		inW.Close()
		if err := <-errc; err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "chunks/s")
}

// floodSink finds the session id, then waits for the answer to the prompt (id 2).
type floodSink struct {
	sessionSeen chan string
	done        chan struct{}
	seen        bool
	ended       bool
	tail        []byte
}

func (s *floodSink) Write(p []byte) (int, error) {
	if !s.seen {
		if i := strings.Index(string(p), `"sessionId":"`); i >= 0 {
			rest := string(p[i+len(`"sessionId":"`):])
			s.sessionSeen <- rest[:strings.IndexByte(rest, '"')]
			s.seen = true
		}
	}
	s.tail = append(s.tail, p[max(0, len(p)-200):]...)
	s.tail = s.tail[max(0, len(s.tail)-200):]
	if !s.ended && strings.Contains(string(s.tail), `"id":2,"result"`) {
		s.ended = true
		close(s.done)
	}
	return len(p), nil
}
