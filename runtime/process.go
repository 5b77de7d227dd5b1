package runtime

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"git.rickub.com/bots-garden/sidekicks/guard"
)

// StopGrace holds the delays of stopping a process.
type StopGrace struct {
	// AfterStdin is how long a process has to exit once its stdin is closed, before
	// SIGTERM goes to its process group.
	AfterStdin time.Duration
	// AfterTerm is how long it has after SIGTERM, before SIGKILL.
	AfterTerm time.Duration
	// Drain is how long, once the process is gone and its group killed, Sidekicks waits
	// for the end of its output before closing the pipes itself (something outside the
	// group may still hold them).
	Drain time.Duration
}

// DefaultStopGrace is what the application uses.
var DefaultStopGrace = StopGrace{AfterStdin: 2 * time.Second, AfterTerm: 3 * time.Second, Drain: time.Second}

func (g StopGrace) orDefault() StopGrace {
	if g.AfterStdin <= 0 {
		g.AfterStdin = DefaultStopGrace.AfterStdin
	}
	if g.AfterTerm <= 0 {
		g.AfterTerm = DefaultStopGrace.AfterTerm
	}
	if g.Drain <= 0 {
		g.Drain = DefaultStopGrace.Drain
	}
	return g
}

// ProcessOptions says how to start a process.
type ProcessOptions struct {
	Path string   // the program
	Args []string // its arguments, without the program
	Dir  string   // its working folder
	Env  []string // KEY=VALUE added to Sidekicks' environment
	// MinimalEnv gives the process only the few variables of Sidekicks' environment that
	// MinimalEnviron keeps, then Env: for an agent of a project agents file, which need
	// not see the user's tokens.
	MinimalEnv bool
	// Log receives the process's stderr, line by line (nil: stderr is discarded).
	Log   *AgentLog
	Grace StopGrace
	// Name names the process in the names of its goroutines (the agent's name); the
	// program's base name when empty.
	Name string
	// Go starts the process's goroutines: the one that drains its stderr into the log
	// ("process stderr <name>") and the one that reaps it ("process wait <name>"). Nil
	// starts them with a plain go statement.
	Go guard.Go
}

// ExitStatus is how a process ended.
type ExitStatus struct {
	Code   int    // the exit code, -1 when killed by a signal
	Signal string // the signal that killed it ("" when it exited)
}

// String says it the way a shell would: "exit status 2", "killed by signal: terminated".
func (e ExitStatus) String() string {
	if e.Signal != "" {
		return "killed by signal: " + e.Signal
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

// Process is a running agent. Its stdout is for the ACP client; its stderr goes to the
// agent's log all the time (never blocking the agent, whatever it writes).
type Process struct {
	Stdin  io.WriteCloser
	Stdout io.Reader
	Pid    int

	cmd    *exec.Cmd
	tag    string      // its ProcessTagEnv, which what it starts inherits
	reaped atomic.Bool // its id may name another process from then on
	// errAt is when the process last wrote on its stderr (Unix nanoseconds; 0: never).
	errAt  atomic.Int64
	treeMu sync.Mutex
	tree   map[int]procInfo // every process of its tree signalAll has found
	grace  StopGrace
	stdout *pipeEnd
	stderr *pipeEnd
	errs   *lineWriter

	done   chan struct{}
	exit   ExitStatus
	closed sync.Once
	// stopReason is why the supervisor stopped the process on purpose (StopReason).
	stopReason atomic.Pointer[string]
}

// StartProcess starts a program in its own process group, with its stdin and stdout as
// pipes and its stderr drained into the log. Its environment holds ProcessTagEnv, a tag of
// its own that what it starts inherits; on Linux it dies with Sidekicks (startCmd), and it
// is recorded for the next Sidekicks when RecordProcesses was called.
func StartProcess(o ProcessOptions) (*Process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("starting %q: %w", o.Path, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, fmt.Errorf("starting %q: %w", o.Path, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, fmt.Errorf("starting %q: %w", o.Path, err)
	}
	cmd := exec.Command(o.Path, o.Args...)
	cmd.Dir = o.Dir
	base := os.Environ()
	if o.MinimalEnv {
		base = MinimalEnviron(base)
	}
	tag := newProcessTag()
	cmd.Env = append(append(base, o.Env...), ProcessTagEnv+"="+tag)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := startCmd(cmd); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		// A missing folder to start in fails as "fork/exec <program>: no such file or
		// directory", which blames the program: name the folder instead.
		if o.Dir != "" {
			if fi, serr := os.Stat(o.Dir); serr != nil || !fi.IsDir() {
				err = &WorkspaceError{Dir: o.Dir, Err: err}
			}
		}
		return nil, fmt.Errorf("starting %q: %w", o.Path, err)
	}
	closeAll(inR, outW, errW) // the child holds its own copies
	p := &Process{
		Stdin: inW, Pid: cmd.Process.Pid, cmd: cmd, tag: tag, grace: o.Grace.orDefault(),
		stdout: newPipeEnd(outR), stderr: newPipeEnd(errR),
		errs: newLineWriter(o.Log, "", 10), done: make(chan struct{}),
	}
	p.Stdout = p.stdout
	name := o.Name
	if name == "" {
		name = filepath.Base(o.Path)
	}
	// Not reaped before the wait goroutine starts: the id is still the process's.
	recordStart(recordedProcess{Pid: p.Pid, Start: processStart(p.Pid), Tag: tag, Agent: name, Program: o.Path})
	o.Go.Start("process stderr "+name, p.drainStderr)
	o.Go.Start("process wait "+name, p.wait)
	return p, nil
}

// WorkspaceError is a start that failed because the folder the program starts in (the
// agent's workspace) does not exist, or is not a folder.
type WorkspaceError struct {
	Dir string
	Err error // the error of the start
}

func (e *WorkspaceError) Error() string {
	return fmt.Sprintf("the workspace %s does not exist or is not a folder: %v", e.Dir, e.Err)
}

func (e *WorkspaceError) Unwrap() error { return e.Err }

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// drainStderr copies stderr into the log until its end.
func (p *Process) drainStderr() {
	buf := make([]byte, 32<<10)
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 {
			p.errAt.Store(time.Now().UnixNano())
			_, _ = p.errs.Write(buf[:n])
		}
		if err != nil {
			_ = p.errs.Close()
			return
		}
	}
}

// wait reaps the process, kills what is left of its group and every process that carries
// its tag, and closes the pipes once their output has ended or Drain has passed.
func (p *Process) wait() {
	_ = p.cmd.Wait()
	p.reaped.Store(true)
	st := p.cmd.ProcessState
	p.exit = ExitStatus{Code: st.ExitCode()}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		p.exit.Signal = ws.Signal().String()
	}
	// Grandchildren must not outlive the agent, nor hold its pipes open: those of its
	// group, and those that left it (setsid) but carry its tag.
	p.signalAll(syscall.SIGKILL)
	recordEnd(p.tag)
	_ = p.Stdin.Close()
	expired := make(chan struct{})
	timer := time.AfterFunc(p.grace.Drain, func() { close(expired) })
	select {
	case <-p.stderr.eof:
	case <-expired:
	}
	select {
	case <-p.stdout.eof:
	case <-expired:
	}
	timer.Stop()
	_ = p.stdout.Close()
	_ = p.stderr.Close()
	<-p.stderr.eof // the drain has seen the end: the stderr tail is complete
	close(p.done)
}

// Done is closed once the process has exited and its pipes are closed.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the process to end and returns how it ended.
func (p *Process) Wait() ExitStatus {
	<-p.done
	return p.exit
}

// StderrTail returns the last lines the process wrote on stderr.
func (p *Process) StderrTail() []string { return p.errs.Tail() }

// Stop ends the process: it closes its stdin, then after AfterStdin sends SIGTERM to its
// process group and every process of its tree (signalAll), then after AfterTerm SIGKILL;
// it returns once the process is gone.
func (p *Process) Stop() ExitStatus {
	_ = p.Stdin.Close()
	steps := []struct {
		wait time.Duration
		sig  syscall.Signal
	}{{p.grace.AfterStdin, syscall.SIGTERM}, {p.grace.AfterTerm, syscall.SIGKILL}}
	for _, s := range steps {
		t := time.NewTimer(s.wait)
		select {
		case <-p.done:
			t.Stop()
			return p.exit
		case <-t.C:
		}
		p.signalAll(s.sig)
	}
	return p.Wait()
}

// signalAll sends sig to the process's group and to every process that belongs to it,
// wherever it went: its descendants (while it is not reaped: afterwards its id may name
// another process) and whatever carries its tag. All are found before any is signalled,
// so that a child is not lost when its parent's death hands it to another; each stop step
// looks again, and signals again what the earlier ones found (a child without the tag
// that outlived its parent's SIGTERM gets the SIGKILL).
func (p *Process) signalAll(sig syscall.Signal) {
	root := p.Pid
	if p.reaped.Load() {
		root = 0
	}
	related := relatedProcesses(root, p.tag)
	if root != 0 && p.reaped.Load() {
		related = relatedProcesses(0, p.tag) // reaped meanwhile: the walk may be another's
	}
	if pgid, err := syscall.Getpgid(p.Pid); err == nil && pgid != p.Pid && !p.reaped.Load() {
		// It left its own group: the group's signal would miss it. Through a pidfd,
		// never another process.
		_ = p.cmd.Process.Signal(sig)
	}
	_ = syscall.Kill(-p.Pid, sig)
	p.treeMu.Lock()
	defer p.treeMu.Unlock()
	if p.tree == nil {
		p.tree = map[int]procInfo{}
	}
	for _, r := range related {
		p.tree[r.pid] = r
	}
	for _, r := range p.tree {
		signalProcess(r, sig) // never one that reused the id: its start time differs
	}
}

// pipeEnd is our end of a pipe, which remembers when it reached its end (or was closed).
type pipeEnd struct {
	f    *os.File
	eof  chan struct{}
	once sync.Once
}

func newPipeEnd(f *os.File) *pipeEnd { return &pipeEnd{f: f, eof: make(chan struct{})} }

func (p *pipeEnd) Read(b []byte) (int, error) {
	n, err := p.f.Read(b)
	if err != nil {
		if errors.Is(err, os.ErrClosed) {
			err = io.EOF
		}
		p.once.Do(func() { close(p.eof) })
	}
	return n, err
}

func (p *pipeEnd) Close() error { return p.f.Close() }

// minimalEnvNames are the variables MinimalEnviron keeps, besides every LC_*.
var minimalEnvNames = map[string]bool{
	"PATH": true, "HOME": true, "LANG": true, "TERM": true, "TMPDIR": true, "USER": true, "SHELL": true,
}

// MinimalEnviron keeps of env (KEY=VALUE entries, as os.Environ gives them) only PATH,
// HOME, LANG, LC_*, TERM, TMPDIR, USER and SHELL: what a program needs to run, without
// the tokens and keys a user's shell holds.
func MinimalEnviron(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if minimalEnvNames[k] || strings.HasPrefix(k, "LC_") {
			out = append(out, kv)
		}
	}
	return out
}
