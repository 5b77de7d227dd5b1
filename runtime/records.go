package runtime

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A Sidekicks killed outright (SIGKILL, the OOM killer) cannot stop its agents. On Linux
// they die with it (Pdeathsig), but what they started in a session of their own does not.
// So each agent process carries a tag in its environment, which its descendants inherit,
// and each Sidekicks records the processes it runs in a file of the state folder, locked
// while it lives. The next Sidekicks that starts finds the files no one holds any more,
// and stops every process that still runs with one of their tags.

// ProcessTagEnv is the variable that tags an agent's process, and what it starts, as this
// Sidekicks' (a token of its own, then the number of the process).
const ProcessTagEnv = "SIDEKICKS_PROCESS"

// ProcessesDirName is the folder, in the state folder, of the records of running processes.
const ProcessesDirName = "processes"

// leftoverGrace is how long a leftover has after SIGTERM before SIGKILL.
const leftoverGrace = time.Second

// maxRecordSize bounds the read of a record: the file lives in a folder others may write.
const maxRecordSize = 1 << 20

var instance struct {
	once  sync.Once
	token string
	seq   atomic.Uint64
}

// instanceToken is this Sidekicks' own random token.
func instanceToken() string {
	instance.once.Do(func() {
		b := make([]byte, 16)
		_, _ = rand.Read(b) // never fails on the systems Go supports
		instance.token = hex.EncodeToString(b)
	})
	return instance.token
}

// newProcessTag returns the tag of the next process this Sidekicks starts.
func newProcessTag() string {
	return instanceToken() + "-" + strconv.FormatUint(instance.seq.Add(1), 10)
}

// recordedProcess is one process of a record.
type recordedProcess struct {
	Pid     int    `json:"pid"`
	Start   uint64 `json:"start"` // its start time (/proc/PID/stat), which tells a reused id
	Tag     string `json:"tag"`
	Agent   string `json:"agent"`
	Program string `json:"program"`
}

// recordFile is what a record holds.
type recordFile struct {
	Owner     int               `json:"owner"` // the Sidekicks' process id, for a reader
	Processes []recordedProcess `json:"processes"`
}

// record is this Sidekicks' record: the file exists, locked, while a process runs.
var record struct {
	mu    sync.Mutex
	dir   string // "" until RecordProcesses
	logf  func(string, ...any)
	f     *os.File
	path  string                     // f's path
	procs map[string]recordedProcess // by tag
	err   bool                       // a failure was already logged
}

// RecordProcesses makes every agent process started from now on recorded in dir (the
// processes folder of the state folder, which must exist), so that a Sidekicks started after this one was
// killed stops what it left (StopLeftovers). logf receives the failures to write the record
// (nil: none). A later call changes the folder for the next processes.
func RecordProcesses(dir string, logf func(string, ...any)) {
	record.mu.Lock()
	defer record.mu.Unlock()
	record.dir, record.logf = dir, logf
	if record.procs == nil {
		record.procs = map[string]recordedProcess{}
	}
}

// recordStart adds a started process to the record.
func recordStart(p recordedProcess) {
	record.mu.Lock()
	defer record.mu.Unlock()
	if record.dir == "" {
		return
	}
	record.procs[p.Tag] = p
	writeRecord()
}

// recordEnd removes an ended process from the record.
func recordEnd(tag string) {
	record.mu.Lock()
	defer record.mu.Unlock()
	if _, ok := record.procs[tag]; !ok {
		return
	}
	delete(record.procs, tag)
	writeRecord()
}

func recordPath(dir, token string) string { return filepath.Join(dir, token+".json") }

// writeRecord rewrites the record in place, under its lock; it removes the file once no
// process runs. Called with record.mu held.
func writeRecord() {
	if len(record.procs) == 0 {
		if record.f != nil {
			_ = os.Remove(record.path)
			_ = record.f.Close()
			record.f = nil
		}
		return
	}
	err := openRecord()
	if err == nil {
		rf := recordFile{Owner: os.Getpid()}
		for _, p := range record.procs {
			rf.Processes = append(rf.Processes, p)
		}
		b, _ := json.Marshal(rf)
		if err = record.f.Truncate(0); err == nil {
			_, err = record.f.WriteAt(b, 0)
		}
	}
	if err != nil && !record.err && record.logf != nil {
		record.err = true
		record.logf("recording the agents' processes (a Sidekicks started after this one is killed stops what it left): %v", err)
	}
}

// openRecord creates the record, locked: under a temporary name first, so that no other
// Sidekicks takes it for the record of a dead one before the lock is held.
func openRecord() error {
	if record.f != nil {
		return nil
	}
	tmp := filepath.Join(record.dir, ".new-"+instanceToken())
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("locking %s: %w", tmp, err)
	}
	path := recordPath(record.dir, instanceToken())
	if err := os.Rename(tmp, path); err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return err
	}
	record.f, record.path = f, path
	return nil
}

// Leftover is a process that a Sidekicks which ended without stopping it left running.
type Leftover struct {
	Pid   int
	Agent string // the agent it belongs to ("" when its record was unreadable)
}

// deadRecord is the record of a Sidekicks that no longer runs, held locked.
type deadRecord struct {
	f     *os.File
	token string
	procs []recordedProcess
}

// StopLeftovers stops what the Sidekicks recorded in dir left running when they ended
// without stopping their agents: every process that still runs with one of their tags,
// recorded or descended from one. Each gets SIGTERM, then SIGKILL after grace; a process
// is signalled only once its start time and its tag show it is the one recorded, never
// another that reused its id. It returns what it stopped, and removes the records.
func StopLeftovers(dir string, grace time.Duration) []Leftover {
	dead := deadRecords(dir)
	if len(dead) == 0 {
		return nil
	}
	defer func() {
		for _, d := range dead {
			_ = os.Remove(d.f.Name())
			_ = d.f.Close()
		}
	}()
	agents := map[string]string{} // tag → agent
	tokens := map[string]bool{}
	for _, d := range dead {
		tokens[d.token] = true
		for _, p := range d.procs {
			agents[p.Tag] = p.Agent
		}
	}
	match := func(tag string) bool {
		token, _, ok := strings.Cut(tag, "-")
		return ok && tokens[token]
	}
	// A recorded process carries its tag: finding it among the tagged ones is the check
	// that its id was not reused.
	targets := taggedProcesses(allProcesses(), match)
	if len(targets) == 0 {
		return nil
	}
	var out []Leftover
	for _, p := range targets {
		out = append(out, Leftover{Pid: p.pid, Agent: agents[p.tag]})
		signalProcess(p.procInfo, syscall.SIGTERM)
	}
	end := time.Now().Add(grace)
	for time.Now().Before(end) && anyRunning(targets) {
		time.Sleep(20 * time.Millisecond) // no event tells that another's process died
	}
	for _, p := range targets {
		signalProcess(p.procInfo, syscall.SIGKILL)
	}
	return out
}

func anyRunning(ps []taggedProcess) bool {
	for _, p := range ps {
		if processRunning(p.pid, p.start) {
			return true
		}
	}
	return false
}

// deadRecords opens and locks the records of dir that no running Sidekicks holds.
func deadRecords(dir string) []deadRecord {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	own := instanceToken()
	var out []deadRecord
	for _, e := range entries {
		name := e.Name()
		token, ok := strings.CutSuffix(name, ".json")
		if !ok {
			token, ok = strings.CutPrefix(name, ".new-")
		}
		if !ok || token == own || token == "" || strings.Contains(token, "-") {
			continue
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			_ = f.Close()
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			_ = f.Close() // its Sidekicks runs
			continue
		}
		var rf recordFile
		b, _ := io.ReadAll(io.LimitReader(f, maxRecordSize))
		_ = json.Unmarshal(b, &rf) // a record cut short still names its token
		out = append(out, deadRecord{f: f, token: token, procs: rf.Processes})
	}
	return out
}

// TrackProcesses is what a Sidekicks does as it starts, before any agent: it stops what
// a killed Sidekicks left (StopLeftovers), then records its own processes
// (RecordProcesses), both in the processes folder of the state folder. logf receives what
// was stopped and what failed (nil: nothing is said).
func TrackProcesses(logf func(string, ...any)) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	state, err := StateDir()
	if err != nil {
		logf("not recording the agents' processes: %v", err)
		return
	}
	dir := filepath.Join(state, ProcessesDirName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		logf("not recording the agents' processes: %v", err)
		return
	}
	for _, l := range StopLeftovers(dir, leftoverGrace) {
		if l.Agent != "" {
			logf("stopped process %d of agent %q, left running by a Sidekicks that ended without stopping it", l.Pid, l.Agent)
		} else {
			logf("stopped process %d, left running by a Sidekicks that ended without stopping it", l.Pid)
		}
	}
	RecordProcesses(dir, logf)
}
