package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/guard"
)

// Defaults for agent logs.
const (
	DefaultLogLines    = 2000    // lines kept in memory per agent
	DefaultLogFileSize = 5 << 20 // bytes before the file is rotated
	MaxLogLine         = 2048    // bytes of one line; the rest is cut
	logPendingBytes    = 1 << 20 // bytes waiting for the file before lines are dropped
	logFileMode        = os.FileMode(0o600)
)

// StateDir returns Sidekicks' state folder: $SIDEKICKS_STATE_DIR, or "sidekicks" in
// $XDG_STATE_HOME (else ~/.local/state) on Linux and in ~/Library/Logs on macOS. It is
// config.StateDir, where the approvals of project agents files are kept too.
func StateDir() (string, error) { return config.StateDir() }

// LogsDir returns the folder of the agents' logs and Sidekicks' own: StateDir()/logs.
func LogsDir() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "logs"), nil
}

// LogsOptions configures Logs; zero values take the defaults.
type LogsOptions struct {
	// Dir is where <agent>.log files go; "" keeps logs in memory only.
	Dir string
	// Lines is how many lines each agent keeps in memory.
	Lines int
	// FileSize is the size at which a file is renamed to <agent>.log.1 (replacing the
	// previous one) and a new one started.
	FileSize int64
	// Now stamps each line; time.Now when nil.
	Now func() time.Time
	// Go starts the goroutine that writes an agent's lines to its file ("log writer
	// <agent>"), which lives while lines are waiting. Nil starts it with a plain go
	// statement.
	Go guard.Go
	// Problem, when set, is told when an agent's log file cannot be written (err set:
	// the first failure after lines were written) and when it is written again (err
	// nil). Lines that fail stay in memory (the last Lines of them); the log itself says
	// so, and the file, once written again, says how many lines it misses. Problem is
	// called on the log's writer goroutine, without the log's lock; it must not wait.
	Problem func(agent, path string, err error)
}

// Logs holds every agent's log.
type Logs struct {
	opts LogsOptions
	mu   sync.Mutex
	logs map[string]*AgentLog
}

// NewLogs returns an empty set of logs.
func NewLogs(opts LogsOptions) *Logs {
	if opts.Lines <= 0 {
		opts.Lines = DefaultLogLines
	}
	if opts.FileSize <= 0 {
		opts.FileSize = DefaultLogFileSize
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Logs{opts: opts, logs: map[string]*AgentLog{}}
}

// Agent returns the log of an agent, creating it on first use.
func (l *Logs) Agent(name string) *AgentLog {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := l.logs[name]
	if a == nil {
		a = &AgentLog{opts: l.opts, name: name, ring: make([]LogLine, l.opts.Lines)}
		if l.opts.Dir != "" {
			a.path = filepath.Join(l.opts.Dir, "agents", logFileName(name))
		}
		a.idle = sync.NewCond(&a.mu)
		l.logs[name] = a
	}
	return a
}

// Flush waits until every line written so far is in the files.
func (l *Logs) Flush() {
	l.mu.Lock()
	all := make([]*AgentLog, 0, len(l.logs))
	for _, a := range l.logs {
		all = append(all, a)
	}
	l.mu.Unlock()
	for _, a := range all {
		a.Flush()
	}
}

// logFileName keeps an agent's name to characters safe in a file name.
func logFileName(name string) string {
	b := []byte(name)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_.log"
	}
	return string(b) + ".log"
}

// LogLine is one line of an agent's log.
type LogLine struct {
	Time time.Time
	Text string // cleaned of control characters, at most MaxLogLine bytes
}

// String formats the line as the file holds it: an RFC 3339 time, a space, the text.
func (l LogLine) String() string {
	return l.Time.Format(time.RFC3339) + " " + l.Text
}

// AgentLog is one agent's log: the last lines in memory for the screen, and a file. Adding
// a line never waits for the disk: lines are handed to a writer goroutine, and when more
// than a megabyte is waiting, new lines skip the file (the file then says how many).
type AgentLog struct {
	opts LogsOptions
	name string // the agent's
	path string

	mu           sync.Mutex
	ring         []LogLine
	next         int // where the next line goes in ring
	count        int // lines in ring
	total        int64
	subs         []chan struct{}
	pending      []string
	pendingBytes int
	dropped      int
	writing      bool
	idle         *sync.Cond
	file         *os.File
	size         int64
	fileErr      error  // why the file could not be written, until it is again
	missing      int    // lines not written to the file while fileErr was set
	stamp        string // the formatted time of stampSec, and a space
	stampSec     int64
}

// Printf adds a supervisor event to the log.
func (a *AgentLog) Printf(format string, args ...any) {
	a.Add(fmt.Sprintf(format, args...))
}

// Add adds text to the log, one line per line of text.
func (a *AgentLog) Add(text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		a.addLine(line)
	}
}

// addLine adds one line (without its newline), cut and cleaned.
func (a *AgentLog) addLine(line string) {
	a.addLines([]string{line})
}

// addLines adds lines under one lock and one time stamp: a process flooding its stderr
// costs little per line.
func (a *AgentLog) addLines(lines []string) {
	now := a.opts.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	stamp := a.stampOf(now)
	for _, line := range lines {
		if len(line) > MaxLogLine {
			line = line[:MaxLogLine] + "…"
		}
		l := LogLine{Time: now, Text: cleanLine(line)}
		a.keep(l)
		if a.path == "" {
			continue
		}
		s := stamp + l.Text + "\n"
		if a.pendingBytes+len(s) > logPendingBytes {
			a.dropped++
			continue
		}
		a.pending = append(a.pending, s)
		a.pendingBytes += len(s)
		if !a.writing {
			a.writing = true
			a.opts.Go.Start("log writer "+a.name, a.writeFile)
		}
	}
	a.notify()
}

// keep puts a line in memory. The caller holds the lock.
func (a *AgentLog) keep(l LogLine) {
	a.ring[a.next] = l
	a.next = (a.next + 1) % len(a.ring)
	if a.count < len(a.ring) {
		a.count++
	}
	a.total++
}

// notify tells the subscribers that lines were added. The caller holds the lock.
func (a *AgentLog) notify() {
	for _, c := range a.subs {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// stampOf formats the time of lines once per second.
func (a *AgentLog) stampOf(t time.Time) string {
	if sec := t.Unix(); sec != a.stampSec || a.stamp == "" {
		a.stampSec, a.stamp = sec, t.Format(time.RFC3339)+" "
	}
	return a.stamp
}

// Lines returns the lines kept in memory, oldest first.
func (a *AgentLog) Lines() []LogLine {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]LogLine, 0, a.count)
	start := (a.next - a.count + len(a.ring)) % len(a.ring)
	for i := 0; i < a.count; i++ {
		out = append(out, a.ring[(start+i)%len(a.ring)])
	}
	return out
}

// Total is how many lines were ever added (the screen uses it to know what is new).
func (a *AgentLog) Total() int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.total
}

// Subscribe returns a channel that receives a value after lines were added (several
// additions may give one value), and a function that ends the subscription.
func (a *AgentLog) Subscribe() (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	a.mu.Lock()
	a.subs = append(a.subs, c)
	a.mu.Unlock()
	return c, func() {
		a.mu.Lock()
		defer a.mu.Unlock()
		for i, s := range a.subs {
			if s == c {
				a.subs = append(a.subs[:i], a.subs[i+1:]...)
				break
			}
		}
	}
}

// Path is the log's file ("" when logs stay in memory).
func (a *AgentLog) Path() string { return a.path }

// Flush waits until the lines added so far are written to the file.
func (a *AgentLog) Flush() {
	a.mu.Lock()
	for a.writing {
		a.idle.Wait()
	}
	a.mu.Unlock()
}

// writeFile writes pending lines until there are none, then ends.
func (a *AgentLog) writeFile() {
	a.mu.Lock()
	for len(a.pending) > 0 || a.dropped > 0 {
		batch := a.pending
		dropped := a.dropped
		a.pending, a.pendingBytes, a.dropped = nil, 0, 0
		a.mu.Unlock()
		if dropped > 0 {
			batch = append(batch, LogLine{Time: a.opts.Now(),
				Text: fmt.Sprintf("sidekicks: %d lines were too fast for this file and are missing", dropped)}.String()+"\n")
		}
		err := a.writeLines(batch)
		a.mu.Lock()
		a.fileWritten(err, len(batch))
	}
	a.writing = false
	if a.file != nil {
		// Closed when idle, so that no descriptor stays open per agent.
		_ = a.file.Close()
		a.file = nil
	}
	a.idle.Broadcast()
	a.mu.Unlock()
}

// writeLines appends lines to the file, rotating it at the size limit, and returns the
// error that stopped it. Only the writer goroutine calls it.
func (a *AgentLog) writeLines(lines []string) error {
	var buf []byte
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		n, err := a.file.Write(buf)
		a.size += int64(n)
		buf = buf[:0]
		return err
	}
	for _, s := range lines {
		if a.file == nil {
			if err := a.openFile(os.O_APPEND); err != nil {
				return err
			}
		}
		if a.size+int64(len(buf)) > 0 && a.size+int64(len(buf)+len(s)) > a.opts.FileSize {
			if err := flush(); err != nil {
				return err
			}
			_ = a.file.Close()
			a.file = nil
			_ = os.Rename(a.path, a.path+".1")
			if err := a.openFile(os.O_TRUNC); err != nil {
				return err
			}
		}
		buf = append(buf, s...)
	}
	return flush()
}

// fileWritten records how writing n lines to the file went (err nil: written). The first
// failure, and writing again after failures, are said in the log's memory, told to
// Problem, and the file then says how many lines it misses. The caller, the writer
// goroutine, holds the lock; it is released while Problem is told.
func (a *AgentLog) fileWritten(err error, n int) {
	switch {
	case err != nil:
		a.missing += n
		if a.fileErr != nil {
			return
		}
		a.fileErr = err
		if a.file != nil { // opened again at the next lines: the error may be the file's
			_ = a.file.Close()
			a.file = nil
		}
		a.keep(LogLine{Time: a.opts.Now(), Text: cleanLine(fmt.Sprintf("sidekicks: cannot write %s (%v): the lines stay in memory only", a.path, err))})
	case a.fileErr != nil:
		note := fmt.Sprintf("sidekicks: %d lines before this one are missing: the file could not be written (%v)", a.missing, a.fileErr)
		a.fileErr, a.missing = nil, 0
		a.pending = append(a.pending, LogLine{Time: a.opts.Now(), Text: cleanLine(note)}.String()+"\n")
		a.keep(LogLine{Time: a.opts.Now(), Text: cleanLine("sidekicks: " + a.path + " is written again")})
	default:
		return
	}
	a.notify()
	if a.opts.Problem != nil {
		fileErr := a.fileErr
		a.mu.Unlock()
		a.opts.Problem(a.name, a.path, fileErr)
		a.mu.Lock()
	}
}

// openFile opens the log file for appending (flag O_APPEND or O_TRUNC), the user's alone
// (0600) in a folder created the user's alone (0700).
func (a *AgentLog) openFile(flag int) error {
	if err := os.MkdirAll(filepath.Dir(a.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|flag, logFileMode)
	if err != nil {
		return err
	}
	a.file, a.size = f, 0
	if fi, err := f.Stat(); err == nil {
		a.size = fi.Size()
		// A file left readable by others (by an older Sidekicks, say) becomes the
		// user's alone: the command lines and the agent's output are in it.
		if fi.Mode().Perm()&^logFileMode != 0 {
			_ = f.Chmod(logFileMode)
		}
	}
	return nil
}
