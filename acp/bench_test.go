package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	sdk "github.com/coder/acp-go-sdk"
)

// benchChunks is how many agent_message_chunk lines one burst of the stream holds.
const benchChunks = 200000

// modelHandler is the trivial model of the benchmarks: text appended to a builder under
// a lock, capped at 1 MiB like a conversation's entry.
type modelHandler struct {
	mu   sync.Mutex
	b    strings.Builder
	n    int
	lost int
}

func (h *modelHandler) Chunk(kind, text string) {
	h.mu.Lock()
	h.n++
	if h.b.Len()+len(text) <= 1<<20 {
		h.b.WriteString(text)
	} else {
		h.lost += len(text)
	}
	h.mu.Unlock()
}

func (h *modelHandler) Update(sdk.SessionUpdate) {}

func (h *modelHandler) RequestPermission(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{}
}

func (h *modelHandler) reset() {
	h.mu.Lock()
	h.b.Reset()
	h.n, h.lost = 0, 0
	h.mu.Unlock()
}

// rawReader is the raw limit: the same agent's lines read with bufio and decoded into
// the smallest struct that extracts the text, nothing else.
type rawReader struct {
	p     *agentProc
	sc    *bufio.Scanner
	id    int
	chunk struct {
		Params struct {
			Update struct {
				Content struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"update"`
		} `json:"params"`
	}
}

func startRaw(b *testing.B) *rawReader {
	b.Helper()
	r := &rawReader{p: startProcess(b, "basic")}
	r.sc = bufio.NewScanner(r.p.stdout)
	r.sc.Buffer(make([]byte, 64<<10), 16<<20)
	r.request(b, `"initialize","params":{"protocolVersion":1}`)
	r.lines(b, 1, false)
	r.request(b, `"session/new","params":{"cwd":"/work","mcpServers":[]}`)
	r.lines(b, 1, false)
	return r
}

func (r *rawReader) request(b *testing.B, methodAndParams string) {
	r.id++
	if _, err := fmt.Fprintf(r.p.stdin, `{"jsonrpc":"2.0","id":%d,"method":%s}`+"\n", r.id, methodAndParams); err != nil {
		b.Fatal(err)
	}
}

// lines reads n lines, decoding each when decode is set; it returns the text's length.
func (r *rawReader) lines(b *testing.B, n int, decode bool) int {
	total := 0
	for range n {
		if !r.sc.Scan() {
			b.Fatalf("the agent's output ended: %v", r.sc.Err())
		}
		if decode {
			r.chunk.Params.Update.Content.Text = ""
			if err := json.Unmarshal(r.sc.Bytes(), &r.chunk); err != nil {
				b.Fatal(err)
			}
			total += len(r.chunk.Params.Update.Content.Text)
		}
	}
	return total
}

// burst asks for one stream and reads it.
func (r *rawReader) burst(b *testing.B) {
	r.request(b, fmt.Sprintf(`"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"stream %d"}]}`, benchChunks))
	if got := r.lines(b, benchChunks, true); got != benchChunks*len("word ") {
		b.Fatalf("read %d bytes of text", got)
	}
	r.lines(b, 1, false) // the answer to the prompt
}

// BenchmarkRawDecodeLimit measures the raw limit alone: messages per second read from an
// agent process with bufio and json.Unmarshal into the smallest struct.
func BenchmarkRawDecodeLimit(b *testing.B) {
	r := startRaw(b)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		r.burst(b)
	}
	b.ReportMetric(float64(benchChunks*b.N)/time.Since(start).Seconds(), "msgs/s")
}

// BenchmarkClientChunks measures messages per second through the full client path
// (process pipe → transport → handler appending to a model), and, in the same run
// and outside the timer, the raw limit, reporting the ratio of the two (goal ≥ 0.7).
// The "traced" case writes every message to a trace file as well.
func BenchmarkClientChunks(b *testing.B) {
	for _, traced := range []bool{false, true} {
		name := "plain"
		if traced {
			name = "traced"
		}
		b.Run(name, func(b *testing.B) {
			var opts acp.Options
			if traced {
				opts.Trace = acp.OpenTrace(filepath.Join(b.TempDir(), "trace.log"))
				defer opts.Trace.Close()
			}
			c, _ := startAgent(b, "basic", opts)
			h := &modelHandler{}
			s, err := c.NewSession(context.Background(), "/work", h)
			if err != nil {
				b.Fatal(err)
			}
			raw := startRaw(b)
			msg := text(fmt.Sprintf("stream %d", benchChunks))
			var clientTime, rawTime time.Duration
			b.ResetTimer()
			for range b.N {
				h.reset()
				start := time.Now()
				stop, err := s.Prompt(context.Background(), msg)
				clientTime += time.Since(start)
				if err != nil || stop != sdk.StopReasonEndTurn || h.n != benchChunks {
					b.Fatalf("prompt: %q, %v, %d chunks", stop, err, h.n)
				}
				b.StopTimer()
				start = time.Now()
				raw.burst(b)
				rawTime += time.Since(start)
				b.StartTimer()
			}
			msgs := float64(benchChunks * b.N)
			b.ReportMetric(msgs/clientTime.Seconds(), "msgs/s")
			b.ReportMetric(msgs/rawTime.Seconds(), "raw-msgs/s")
			b.ReportMetric(rawTime.Seconds()/clientTime.Seconds(), "ratio")
		})
	}
}
