package testagents

import (
	"fmt"
	"io"
	"os"
	"time"
)

// SlowStartEnv configures the "slow-start" agent: "ANSWER,CHATTER" in milliseconds. It
// answers initialize ANSWER ms after it reads it (never when ANSWER is negative), and
// meanwhile writes "loading model… N" on its stderr every 100 ms for CHATTER ms, as an
// agent whose container is being created or whose model loads.
const SlowStartEnv = "SIDEKICKS_TEST_SLOW_START"

func init() { modes["slow-start"] = serveSlowStart }

func serveSlowStart(in io.Reader, out, stderr io.Writer) int {
	var answer, chatter int
	fmt.Sscanf(os.Getenv(SlowStartEnv), "%d,%d", &answer, &chatter)
	p := newPeer("slow-start", in, out)
	start := time.Now()
	go func() {
		for n := 1; time.Since(start) < time.Duration(chatter)*time.Millisecond; n++ {
			fmt.Fprintf(stderr, "loading model… %d\n", n)
			time.Sleep(100 * time.Millisecond)
		}
	}()
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		if m.Method == "initialize" {
			if answer < 0 {
				continue
			}
			time.Sleep(time.Until(start.Add(time.Duration(answer) * time.Millisecond)))
		}
		p.handshake(m, nil)
	}
}
