package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// server is a private tmux server. Keys go through one control-mode client, so that
// sending a key costs no process start; what each pane prints comes back through
// pipe-pane into a FIFO, read as it arrives.
type server struct {
	socket string
	dir    string
	ctl    *exec.Cmd
	ctlIn  io.WriteCloser
	ctlMu  sync.Mutex
}

// pane is one tmux window's single pane and everything it printed.
type pane struct {
	target string
	mu     sync.Mutex
	out    []byte
	at     []time.Time // when each read ended
	ends   []int       // the length of out after each read
	grew   chan struct{}
}

// socketPrefix starts the name of the private tmux server's socket, the process id ends it.
var socketPrefix = "sidekicks-resp"

func newServer(dir string) (*server, error) {
	s := &server{socket: fmt.Sprintf("%s-%d", socketPrefix, os.Getpid()), dir: dir}
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g status off\nset -g history-limit 0\n"), 0o600); err != nil {
		return nil, err
	}
	if _, err := s.run("-f", conf, "new-session", "-d", "-s", "m", "-x", "200", "-y", "60", "sh"); err != nil {
		return nil, err
	}
	s.ctl = exec.Command("tmux", "-L", s.socket, "-C", "attach-session", "-t", "m")
	in, err := s.ctl.StdinPipe()
	if err != nil {
		return nil, err
	}
	s.ctlIn = in
	s.ctl.Stdout = io.Discard
	if err := s.ctl.Start(); err != nil {
		return nil, fmt.Errorf("starting the control client: %w", err)
	}
	// The client only sends keys: without this, tmux would also send it every byte each
	// pane prints (%output, escaped), work that grows with what the program measured
	// prints and that cat, printing next to nothing, does not cause. The output is read
	// from the panes' pipes.
	if _, err := io.WriteString(in, "refresh-client -f no-output\n"); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *server) run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

func (s *server) close() {
	if s.ctlIn != nil {
		s.ctlIn.Close()
	}
	exec.Command("tmux", "-L", s.socket, "kill-server").Run()
	if s.ctl == nil {
		return
	}
	// The control client ends with the server; once in a hundred runs the server did not
	// end, and the script waited for its client for good, its figures printed.
	done := make(chan struct{})
	go func() { s.ctl.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = s.ctl.Process.Kill()
		exec.Command("tmux", "-L", s.socket, "kill-server").Run()
		<-done
	}
}

// window opens a 200×60 window named name running command, its output piped.
func (s *server) window(name string, env []string, command string) (*pane, error) {
	args := []string{"new-window", "-d", "-n", name}
	for _, kv := range env {
		args = append(args, "-e", kv)
	}
	if _, err := s.run(append(args, command)...); err != nil {
		return nil, err
	}
	p := &pane{target: "m:" + name, grew: make(chan struct{}, 1)}
	if _, err := s.run("resize-window", "-t", p.target, "-x", "200", "-y", "60"); err != nil {
		return nil, err
	}
	fifo := filepath.Join(s.dir, name+".out")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return nil, err
	}
	go p.read(fifo)
	if _, err := s.run("pipe-pane", "-t", p.target, "-o", "cat > '"+fifo+"'"); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *pane) read(fifo string) {
	f, err := os.Open(fifo)
	if err != nil {
		return
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	for {
		n, err := f.Read(buf)
		if n > 0 {
			now := time.Now()
			p.mu.Lock()
			p.out = append(p.out, buf[:n]...)
			p.at = append(p.at, now)
			p.ends = append(p.ends, len(p.out))
			p.mu.Unlock()
			select {
			case p.grew <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

// mark is where the pane's output ends now.
func (p *pane) mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.out)
}

// waitBytes waits until what the pane printed after from holds want, and returns when the
// read that completed it ended.
func (p *pane) waitBytes(from int, want []byte, deadline time.Duration) (time.Time, error) {
	limit := time.After(deadline)
	for {
		p.mu.Lock()
		if i := bytes.Index(p.out[from:], want); i >= 0 {
			end := from + i + len(want)
			t := p.at[len(p.at)-1]
			for k, e := range p.ends {
				if e >= end {
					t = p.at[k]
					break
				}
			}
			p.mu.Unlock()
			return t, nil
		}
		p.mu.Unlock()
		select {
		case <-p.grew:
		case <-limit:
			return time.Time{}, fmt.Errorf("%s: %q not printed within %v", p.target, want, deadline)
		}
	}
}

// forget drops what the pane printed so far (a flood prints megabytes).
func (p *pane) forget() {
	p.mu.Lock()
	p.out, p.at, p.ends = p.out[:0], p.at[:0], p.ends[:0]
	p.mu.Unlock()
}

// send sends tmux key names to the pane through the control client.
func (s *server) send(p *pane, literal bool, keys ...string) error {
	var b strings.Builder
	b.WriteString("send-keys -t " + p.target)
	if literal {
		b.WriteString(" -l")
	}
	for _, k := range keys {
		b.WriteString(" " + strconv.Quote(k))
	}
	b.WriteString("\n")
	s.ctlMu.Lock()
	defer s.ctlMu.Unlock()
	_, err := io.WriteString(s.ctlIn, b.String())
	return err
}

// screen is what the pane shows now.
func (s *server) screen(p *pane) string {
	out, _ := s.run("capture-pane", "-p", "-t", p.target)
	return out
}

// waitScreen waits until the pane shows text, polling the screen each time it printed.
func (s *server) waitScreen(p *pane, text string, deadline time.Duration) error {
	limit := time.After(deadline)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if strings.Contains(s.screen(p), text) {
			return nil
		}
		select {
		case <-p.grew:
		case <-tick.C:
		case <-limit:
			return fmt.Errorf("%s: %q not shown within %v:\n%s", p.target, text, deadline, s.screen(p))
		}
	}
}

// pid is the process the pane runs.
func (s *server) pid(p *pane) (int, error) {
	out, err := s.run("display-message", "-p", "-t", p.target, "#{pane_pid}")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// rssKiB reads a process's resident memory.
func rssKiB(pid int) (int64, error) { return statusKiB(pid, "VmRSS") }

// anonKiB returns a process's anonymous resident memory, in KiB: its heap and stacks,
// leaving out the pages of its program file, which grow as code runs for the first time
// (a paste, a long reply) whatever the amount of text held.
func anonKiB(pid int) (int64, error) { return statusKiB(pid, "RssAnon") }

// cpuTime returns the CPU time a process has used, user and system, from /proc/PID/stat
// (in clock ticks of 10 ms, Linux's USER_HZ).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, which is in parentheses and may hold spaces:
	// state is the first, utime and stime the 12th and 13th.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	var ticks int64
	for _, v := range f[11:13] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// statusKiB reads one of the KiB fields of /proc/PID/status.
func statusKiB(pid int, field string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			return strconv.ParseInt(strings.Fields(v)[0], 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s for %d", field, pid)
}

// settledRSS polls a process's resident memory while it goes down, and returns the lowest
// seen once it has not gone down for 2 s, or when limit has passed.
func settledRSS(pid int, limit time.Duration, read func(int) (int64, error)) int64 {
	low, _ := read(pid)
	end := time.Now().Add(limit)
	lowAt := time.Now()
	for time.Now().Before(end) && time.Since(lowAt) < 4*time.Second {
		time.Sleep(250 * time.Millisecond) // polling the process: there is no event to wait on
		if v, err := read(pid); err == nil && v < low {
			low, lowAt = v, time.Now()
		}
	}
	return low
}
