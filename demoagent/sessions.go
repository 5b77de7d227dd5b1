package demoagent

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"
)

// stateMaxAge is how long an untouched session's state file is kept.
const stateMaxAge = 30 * 24 * time.Hour

// maxStoredText caps one message kept in a session's history, so that a flood or a huge
// prompt does not make the state file grow without bound.
const maxStoredText = 64 << 10

// A turnRecord is one message of a session's history, replayed by session/load.
type turnRecord struct {
	Role string `json:"role"` // "user" or "agent"
	Text string `json:"text"`
}

// session is one ACP session the agent serves.
type session struct {
	ID      string       `json:"id"`
	Cwd     string       `json:"cwd"`
	History []turnRecord `json:"history"`
	Used    int          `json:"used"` // pretend tokens in context, for usage_update
	Updated time.Time    `json:"updated"`

	cancel func() // cancels the turn in progress; nil when idle
}

// sessionIDPattern is what a session id must look like before it names a state file.
var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,80}$`)

// sessions holds every session of the process and persists each one's history to
// dir/<id>.json (no persistence when dir is empty).
type sessions struct {
	mu   sync.Mutex
	byID map[string]*session
	dir  string
	log  func(format string, args ...any)
}

func newSessions(dir string, log func(string, ...any)) *sessions {
	return &sessions{byID: make(map[string]*session), dir: dir, log: log}
}

// create starts a new session in cwd.
func (s *sessions) create(cwd string) *session {
	var b [12]byte
	_, _ = rand.Read(b[:])
	sess := &session{ID: "demo-" + hex.EncodeToString(b[:]), Cwd: cwd, Updated: time.Now().UTC()}
	s.mu.Lock()
	s.byID[sess.ID] = sess
	s.mu.Unlock()
	s.save(sess)
	return sess
}

// get returns a session known in memory or, failing that, from its state file.
func (s *sessions) get(id string) (*session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess, ok := s.byID[id]; ok {
		return sess, true
	}
	if s.dir == "" || !sessionIDPattern.MatchString(id) {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(s.dir, id+".json"))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log("reading session %s: %v", id, err)
		}
		return nil, false
	}
	var sess session
	if err := json.Unmarshal(data, &sess); err != nil || sess.ID != id {
		s.log("reading session %s: the state file is damaged", id)
		return nil, false
	}
	s.byID[id] = &sess
	return &sess, true
}

// snapshot returns a copy of the session's history and cwd, safe to use without the lock.
func (s *sessions) snapshot(sess *session) ([]turnRecord, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]turnRecord(nil), sess.History...), sess.Cwd
}

// setCwd records the folder a loaded session now works in.
func (s *sessions) setCwd(sess *session, cwd string) {
	s.mu.Lock()
	sess.Cwd = cwd
	s.mu.Unlock()
}

// beginTurn marks the session busy with a turn that cancel stops; it reports false when a
// turn is already running.
func (s *sessions) beginTurn(sess *session, cancel func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sess.cancel != nil {
		return false
	}
	sess.cancel = cancel
	return true
}

// cancelTurn stops the session's turn in progress, if any.
func (s *sessions) cancelTurn(id string) {
	s.mu.Lock()
	sess, ok := s.byID[id]
	var cancel func()
	if ok {
		cancel = sess.cancel
	}
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// endTurn records a finished turn (the user's text, the agent's reply) and persists it.
func (s *sessions) endTurn(sess *session, user, agent string, tokens int) int {
	s.mu.Lock()
	sess.cancel = nil
	sess.History = append(sess.History,
		turnRecord{Role: "user", Text: clip(user, maxStoredText)},
		turnRecord{Role: "agent", Text: clip(agent, maxStoredText)})
	sess.Used += tokens
	sess.Updated = time.Now().UTC()
	used := sess.Used
	s.mu.Unlock()
	s.save(sess)
	return used
}

// save writes the session's state file atomically; a failure is logged, never fatal.
func (s *sessions) save(sess *session) {
	if s.dir == "" {
		return
	}
	s.mu.Lock()
	data, err := json.MarshalIndent(sess, "", "  ")
	s.mu.Unlock()
	if err != nil {
		s.log("saving session %s: %v", sess.ID, err)
		return
	}
	if err := writeFileAtomic(s.dir, sess.ID+".json", data); err != nil {
		s.log("saving session %s: %v", sess.ID, err)
	}
}

// prune removes the state files of sessions untouched for longer than maxAge, so that the
// folder does not grow forever.
func (s *sessions) prune(now time.Time, maxAge time.Duration) {
	if s.dir == "" {
		return
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log("listing the state folder: %v", err)
		}
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || filepath.Ext(name) != ".json" || !sessionIDPattern.MatchString(name[:len(name)-len(".json")]) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < maxAge {
			continue
		}
		if err := os.Remove(filepath.Join(s.dir, name)); err != nil {
			s.log("removing an old session: %v", err)
		}
	}
}

func writeFileAtomic(dir, name string, data []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating the state folder: %w", err)
	}
	tmp, err := os.CreateTemp(dir, name+".*.tmp")
	if err != nil {
		return fmt.Errorf("creating a temporary file: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", tmp.Name(), errors.Join(werr, cerr))
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("renaming the state file: %w", err)
	}
	return nil
}

// StateDir returns the folder where the demo agent keeps its sessions: the
// SIDEKICKS_DEMO_STATE environment variable when set, otherwise sidekicks-demo under
// $XDG_STATE_HOME (~/.local/state when unset). It returns "" when no folder can be found.
func StateDir() string {
	if d := os.Getenv("SIDEKICKS_DEMO_STATE"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sidekicks-demo")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "sidekicks-demo")
}

// clip cuts s to at most n bytes on a rune boundary, saying how much was dropped.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n… (%d bytes not kept)", len(s)-cut)
}
