package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// terminal is a command running on a tmux pane of its own tmux server. Everything the pane
// prints is also piped to a FIFO, so that waiting for the screen to change is waiting for
// an event, not polling.
type terminal struct {
	t       *testing.T
	socket  string
	dir     string
	changed chan struct{}
}

// startTerminal starts a private tmux server running command in a width×height pane.
func startTerminal(t *testing.T, env []string, dir string, width, height int, command ...string) *terminal {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed by the end-to-end tests (.ci/run installs it): %v", err)
	}
	term := &terminal{
		t:       t,
		socket:  fmt.Sprintf("sidekicks-e2e-%d-%d", os.Getpid(), time.Now().UnixNano()),
		dir:     t.TempDir(),
		changed: make(chan struct{}, 1),
	}
	quoted := make([]string, len(command))
	for i, c := range command {
		quoted[i] = shellQuote(c)
	}
	// The wrapper keeps the exit status and signals the end on a tmux channel.
	script := fmt.Sprintf("%s; echo $? > %s; tmux -L %s wait-for -S exited",
		strings.Join(quoted, " "), shellQuote(filepath.Join(term.dir, "status")), term.socket)
	// remain-on-exit keeps the pane, and so its last screen, after the program ends.
	conf := filepath.Join(term.dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g remain-on-exit on\nset -g status off\n"), 0o600); err != nil {
		t.Fatalf("writing tmux.conf: %v", err)
	}
	args := []string{"-L", term.socket, "-f", conf, "new-session", "-d",
		"-x", strconv.Itoa(width), "-y", strconv.Itoa(height), "-c", dir}
	for _, kv := range env {
		args = append(args, "-e", kv)
	}
	args = append(args, "sh", "-c", script)
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("starting tmux: %v\n%s", err, out)
	}
	// The pane's processes (the program and what it started) form one session, led by the
	// pane's shell: the cleanup waits for them to end after the server is killed, so that
	// none still writes in the test's folders when they are removed.
	sid, _ := strconv.Atoi(strings.TrimSpace(term.tmux("list-panes", "-t", "0", "-F", "#{pane_pid}")))
	t.Cleanup(func() {
		exec.Command("tmux", "-L", term.socket, "kill-server").Run()
		waitSessionOver(t, sid)
	})
	term.pipeOutput()
	return term
}

// pipeOutput sends the pane's output to a FIFO read by a goroutine that signals each change.
func (term *terminal) pipeOutput() {
	fifo := filepath.Join(term.dir, "output")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		term.t.Fatalf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.Open(fifo) // blocks until tmux opens the writing end
		if err != nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 64<<10)
		for {
			if _, err := f.Read(buf); err != nil {
				return
			}
			select {
			case term.changed <- struct{}{}:
			default:
			}
		}
	}()
	term.tmux("pipe-pane", "-t", "0", "-o", "cat > "+shellQuote(fifo))
}

func (term *terminal) tmux(args ...string) string {
	term.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", term.socket}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys sends tmux key names (e.g. "M-a", "Enter", "F10").
func (term *terminal) keys(keys ...string) {
	term.t.Helper()
	term.tmux(append([]string{"send-keys", "-t", "0"}, keys...)...)
}

// typeText sends text literally.
func (term *terminal) typeText(text string) {
	term.t.Helper()
	term.tmux("send-keys", "-t", "0", "-l", text)
}

// screen returns what the pane shows now: a capture that the next one confirms, so that
// a frame tmux is still drawing is not taken for the screen (a few tries at most).
func (term *terminal) screen() string {
	term.t.Helper()
	capture := func() string {
		out, err := exec.Command("tmux", "-L", term.socket, "capture-pane", "-p", "-t", "0").CombinedOutput()
		if err != nil {
			return ""
		}
		return string(out)
	}
	s := capture()
	for range 5 {
		again := capture()
		if again == s {
			break
		}
		s = again
	}
	return s
}

// waitFor waits until the screen contains text; it fails the test, showing the screen, when
// that does not happen within the deadline.
func (term *terminal) waitFor(text string, deadline time.Duration) string {
	term.t.Helper()
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	for {
		s := term.screen()
		if strings.Contains(s, text) {
			return s
		}
		select {
		case <-term.changed:
		case <-timer.C:
			term.t.Fatalf("the screen never showed %q within %s; it shows:\n%s", text, deadline, term.screen())
		}
	}
}

// waitExit waits for the command to end and returns its exit status. The wrapper writes the
// status before it signals the tmux channel, so a status already written means the signal
// may have been missed and need not be waited for.
func (term *terminal) waitExit(deadline time.Duration) int {
	term.t.Helper()
	statusFile := filepath.Join(term.dir, "status")
	if _, err := os.Stat(statusFile); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		exec.CommandContext(ctx, "tmux", "-L", term.socket, "wait-for", "exited").Run()
		if ctx.Err() != nil {
			term.t.Fatalf("the program did not exit within %s; the screen shows:\n%s", deadline, term.screen())
		}
	}
	b, err := os.ReadFile(statusFile)
	if err != nil {
		term.t.Fatalf("the program's exit status was not recorded: %v", err)
	}
	code, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		term.t.Fatalf("reading the exit status %q: %v", b, err)
	}
	return code
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// waitSessionOver waits, up to 15 s, until no process of session sid runs any more.
func waitSessionOver(t *testing.T, sid int) {
	if sid <= 0 {
		return
	}
	end := time.Now().Add(15 * time.Second)
	for inSession(sid) {
		if time.Now().After(end) {
			t.Logf("processes of the terminal's session %d still run 15 s after it was closed", sid)
			return
		}
		time.Sleep(20 * time.Millisecond) // no event tells that another's process ended
	}
}

// inSession says whether a process of session sid runs (zombies aside).
func inSession(sid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		// After the command's name: state, ppid, pgrp, session.
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 3 && f[0] != "Z" && f[0] != "X" && f[3] == strconv.Itoa(sid) {
			return true
		}
	}
	return false
}
