package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// benchFlood is how many agent_message_chunks the flood benchmark streams.
const benchFlood = 200000

// BenchmarkAskFlood measures `sidekicks ask` (the command's function, in this process,
// its stdout discarded) on `/flood 200000` from a real demo agent process, against the raw
// limit measured in the same run: the same agent's same lines read with bufio and decoded
// with json.Unmarshal into the smallest struct that extracts the text, nothing else. Both
// include starting the agent's process, initialize, session/new and the agent's exit.
// It reports the ratio raw time / ask time (goal ≥ 0.7).
func BenchmarkAskFlood(b *testing.B) {
	dir := testagents.Env(b)
	cfg := testagents.WriteConfig(b, dir, 2, testagents.DemoEntry(b, "demo", dir, filepath.Join(dir, "state"), ""))
	args := []string{"--config", cfg, "demo", fmt.Sprintf("/flood %d", benchFlood)}
	var askTime, rawTime time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		var errOut bytes.Buffer
		if code := ask(args, io.Discard, &errOut, askEnv{cancelGrace: askCancelGrace}); code != 0 {
			b.Fatalf("ask: exit %d: %s", code, errOut.String())
		}
		askTime += time.Since(start)

		b.StopTimer()
		start = time.Now()
		if n := rawFlood(b, dir); n != floodText(benchFlood) {
			b.Fatalf("raw reader decoded %d bytes of text", n)
		}
		rawTime += time.Since(start)
		b.StartTimer()
	}
	msgs := float64(benchFlood * b.N)
	b.ReportMetric(msgs/askTime.Seconds(), "msgs/s")
	b.ReportMetric(msgs/rawTime.Seconds(), "raw-msgs/s")
	b.ReportMetric(rawTime.Seconds()/askTime.Seconds(), "ratio")
}

// rawFlood starts the demo agent, asks it for the flood and reads it the raw way; it
// returns the bytes of text decoded.
func rawFlood(b *testing.B, dir string) int {
	a, _ := json.Marshal([]string{"--delay", "0"})
	cmd := exec.Command(testagents.Binary(b), "-test.run=^$")
	cmd.Env = append(os.Environ(), "SIDEKICKS_TEST_DEMO_AGENT=1", "SIDEKICKS_TEST_DEMO_ARGS="+string(a), "SIDEKICKS_DEMO_STATE="+filepath.Join(dir, "raw-state"))
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(outPipe)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	next := func() []byte {
		if !sc.Scan() {
			b.Fatalf("the agent's output ended: %v", sc.Err())
		}
		return sc.Bytes()
	}
	send := func(line string) {
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	for !bytes.Contains(next(), []byte(`"id":1`)) {
	}
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, dir))
	var sid struct {
		Result struct {
			SessionID string `json:"sessionId"`
		} `json:"result"`
	}
	for sid.Result.SessionID == "" {
		_ = json.Unmarshal(next(), &sid)
	}
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"/flood %d"}]}}`, sid.Result.SessionID, benchFlood))
	var chunk struct {
		Params struct {
			Update struct {
				Content struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"update"`
		} `json:"params"`
	}
	total := 0
	for n := 0; n < benchFlood; {
		line := next()
		if !bytes.Contains(line, []byte(`"agent_message_chunk"`)) {
			continue // the commands announced with the session
		}
		chunk.Params.Update.Content.Text = ""
		if err := json.Unmarshal(line, &chunk); err != nil {
			b.Fatal(err)
		}
		total += len(chunk.Params.Update.Content.Text)
		n++
	}
	for !bytes.Contains(next(), []byte(`"id":3`)) {
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatalf("the demo agent: %v", err)
	}
	return total
}
