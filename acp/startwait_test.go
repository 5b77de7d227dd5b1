package acp_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// slowStart starts the slow-start agent with its stderr followed, as the runtime follows
// an agent's, and initializes it with a silence of 500 ms and a wait of 3 s at the most.
func slowStart(t *testing.T, timing string) (time.Duration, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), testagents.ModeEnv("slow-start"), testagents.SlowStartEnv+"="+timing)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	var mu sync.Mutex
	var last time.Time
	var line string
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			last, line = time.Now(), sc.Text()
			mu.Unlock()
		}
	}()
	c := acp.NewConn("slow", stdout, stdin, acp.Options{
		InitTimeout: 500 * time.Millisecond, MaxInitWait: 3 * time.Second,
		StartActivity: func() (time.Time, string) {
			mu.Lock()
			defer mu.Unlock()
			return last, line
		},
	})
	t.Cleanup(func() { c.Close() })
	start := time.Now()
	_, err := c.Initialize(testContext(t))
	return time.Since(start), err
}

func TestAnAgentThatShowsLifeIsGivenTimeToStart(t *testing.T) {
	// Busy on stderr, it answers after three times the silence allowed.
	took, err := slowStart(t, "1500,2000")
	if err != nil {
		t.Fatalf("an agent loading its model for 1.5 s, and saying so, failed: %v", err)
	}
	if took < 1400*time.Millisecond {
		t.Errorf("initialized in %s, before the agent answered", took)
	}
}

func TestAnAgentThatKeepsTalkingFailsAfterTheLongestWait(t *testing.T) {
	took, err := slowStart(t, "-1,60000")
	var timeout *acp.InitTimeoutError
	if !errors.As(err, &timeout) {
		t.Fatalf("err = %v, want an InitTimeoutError", err)
	}
	if took < 2900*time.Millisecond || took > 10*time.Second {
		t.Errorf("gave up after %s, want the longest wait of 3 s", took)
	}
	msg := err.Error()
	if !strings.Contains(msg, "did not answer initialize within 3s") || !strings.Contains(msg, "it last wrote on its stderr: loading model… ") {
		t.Errorf("the error %q does not say why", msg)
	}
}

func TestASilentAgentFailsAfterTheSilenceAllowed(t *testing.T) {
	// It says a few words, then nothing.
	took, err := slowStart(t, "-1,300")
	var timeout *acp.InitTimeoutError
	if !errors.As(err, &timeout) {
		t.Fatalf("err = %v, want an InitTimeoutError", err)
	}
	if took > 2*time.Second {
		t.Errorf("waited %s for an agent silent since 300 ms, with 500 ms of silence allowed", took)
	}
}
