package acp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// localRunner runs terminal commands as the application does for a local agent (the
// runtime's AgentCommand; agentstack holds the same adapter).
type localRunner struct{ agent config.Agent }

func (r localRunner) Start(_ context.Context, cmd acp.TerminalCommand) (acp.RunningCommand, error) {
	return runtime.StartAgentCommand(r.agent, runtime.TerminalCommandSpec{Command: cmd.Command, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Cwd}, nil, nil)
}

// termRecorder is a recorder that is also told of the terminals' output.
type termRecorder struct {
	*recorder
	tmu   sync.Mutex
	snaps map[string]acp.TerminalSnapshot
}

func (r *termRecorder) TerminalOutput(id string, s acp.TerminalSnapshot) {
	defer r.signal()
	r.tmu.Lock()
	defer r.tmu.Unlock()
	r.snaps[id] = s
}

// only is the state of the one terminal the session created (the zero state before the
// watcher heard of it); more than one fails the test.
func (r *termRecorder) only(t *testing.T) acp.TerminalSnapshot {
	t.Helper()
	r.tmu.Lock()
	defer r.tmu.Unlock()
	if len(r.snaps) > 1 {
		t.Fatalf("%d terminals, want one", len(r.snaps))
	}
	for _, s := range r.snaps {
		return s
	}
	return acp.TerminalSnapshot{}
}

// termRig is the terminal test agent, connected with terminals in ws, traced.
type termRig struct {
	conn  *acp.Conn
	sess  *acp.Session
	rec   *termRecorder
	ws    string
	trace string
	tr    *acp.Trace
}

func newTermRig(t *testing.T, withTerminals bool) *termRig {
	t.Helper()
	ws := workspaceDir(t)
	r := &termRig{ws: ws, trace: filepath.Join(t.TempDir(), "trace.log")}
	r.tr = acp.OpenTrace(r.trace)
	opts := acp.Options{Workspace: runtime.NewLocalWorkspace(ws, nil), Trace: r.tr}
	if withTerminals {
		opts.Terminals = localRunner{config.Agent{Name: "tester", Workspace: ws}}
	}
	r.conn = connect(t, startCommand(t, exec.Command(os.Args[0]), testagents.ModeEnv("terminal")), opts)
	if _, err := r.conn.Initialize(testContext(t)); err != nil {
		t.Fatal(err)
	}
	r.newSession(t)
	return r
}

// newSession opens a new session, with a new recorder, for the next script.
func (r *termRig) newSession(t *testing.T) {
	t.Helper()
	r.rec = &termRecorder{recorder: newRecorder(), snaps: map[string]acp.TerminalSnapshot{}}
	var err error
	if r.sess, err = r.conn.NewSession(testContext(t), r.ws, r.rec); err != nil {
		t.Fatal(err)
	}
}

// run sends script and returns the agent's report.
func (r *termRig) run(t *testing.T, script testagents.TerminalScript) testagents.TerminalReport {
	t.Helper()
	data, _ := json.Marshal(script)
	prompt(t, r.sess, string(data))
	return r.report(t)
}

func (r *termRig) report(t *testing.T) testagents.TerminalReport {
	t.Helper()
	said := r.rec.textOf(acp.AgentMessageChunk)
	var rep testagents.TerminalReport
	if err := json.Unmarshal([]byte(said), &rep); err != nil {
		t.Fatalf("the agent said %q: %v", said, err)
	}
	return rep
}

// validTrace checks every message Sidekicks sent against the official schema.
func (r *termRig) validTrace(t *testing.T) {
	t.Helper()
	r.tr.Close()
	checkTraceValid(t, r.trace)
}

type exitAnswer struct {
	ExitCode *int    `json:"exitCode"`
	Signal   *string `json:"signal"`
}

type outputAnswer struct {
	Output     string      `json:"output"`
	Truncated  bool        `json:"truncated"`
	ExitStatus *exitAnswer `json:"exitStatus"`
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return v
}

// TestTerminalRunsInWorkspace: the client offers terminals; a command runs in the
// workspace (or a folder of it) with the env given, its arguments quoted, stderr with
// stdout, and its exit code is reported; the watcher saw the same output; the trace is
// valid.
func TestTerminalRunsInWorkspace(t *testing.T) {
	r := newTermRig(t, true)
	if err := os.Mkdir(filepath.Join(r.ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep := r.run(t, testagents.TerminalScript{
		Command: `f() { printf '<%s>' "$@"; exit 3; }; pwd; echo "$GREETING"; echo oops >&2; f`,
		Args:    []string{"a b", "$HOME", "it's"},
		Env:     map[string]string{"GREETING": "hello 'there' $x"},
		Cwd:     filepath.Join(r.ws, "sub"),
		Then:    "wait",
	})
	if !rep.Capability || rep.CreateErr != "" || len(rep.Errors) > 0 {
		t.Fatalf("report %+v", rep)
	}
	exit := decode[exitAnswer](t, rep.Exit)
	if exit.ExitCode == nil || *exit.ExitCode != 3 || exit.Signal != nil {
		t.Errorf("exit %s, want code 3", rep.Exit)
	}
	out := decode[outputAnswer](t, rep.Output)
	want := filepath.Join(r.ws, "sub") + "\nhello 'there' $x\noops\n<a b><$HOME><it's>"
	if out.Output != want || out.Truncated || out.ExitStatus == nil || *out.ExitStatus.ExitCode != 3 {
		t.Errorf("output %+v, want %q, exit 3", out, want)
	}
	r.rec.waitUntil(t, "the watcher's final output", func() bool { return r.rec.only(t).Exited })
	if s := r.rec.only(t); s.Output != want || s.ExitCode != 3 || s.Killed {
		t.Errorf("the watcher saw %+v", s)
	}
	r.validTrace(t)
}

// TestTerminalOutputLimit: past outputByteLimit the oldest output is dropped, at a
// character, and the answer says truncated.
func TestTerminalOutputLimit(t *testing.T) {
	r := newTermRig(t, true)
	limit := 10
	rep := r.run(t, testagents.TerminalScript{Command: `i=0; while [ $i -lt 100 ]; do printf 'é%d' $i; i=$((i+1)); done`, Limit: &limit, Then: "wait"})
	out := decode[outputAnswer](t, rep.Output)
	if !out.Truncated || len(out.Output) > limit || !utf8.ValidString(out.Output) || !strings.HasSuffix(out.Output, "é98é99") ||
		strings.ContainsRune(out.Output, utf8.RuneError) {
		t.Errorf("output %+v: want at most %d bytes ending with é98é99, whole characters, truncated", out, limit)
	}
	r.validTrace(t)
}

// TestTerminalRefusals: a folder outside the workspace is refused, saying why; without a
// runner the client offers no terminal, and terminal/create is a method it does not have.
func TestTerminalRefusals(t *testing.T) {
	r := newTermRig(t, true)
	for _, cwd := range []string{"/tmp", r.ws + "/../elsewhere", "relative"} {
		rep := r.run(t, testagents.TerminalScript{Command: "true", Cwd: cwd, Then: "wait"})
		if !strings.Contains(rep.CreateErr, "commands run only inside the workspace") {
			t.Errorf("cwd %q: create error %q", cwd, rep.CreateErr)
		}
		r.newSession(t)
	}
	r.validTrace(t)

	none := newTermRig(t, false)
	rep := none.run(t, testagents.TerminalScript{Command: "true", Then: "wait"})
	if rep.Capability || !strings.Contains(rep.CreateErr, "Sidekicks does not implement terminal/create") {
		t.Errorf("without terminals: %+v", rep)
	}
}

// stubbornCommand starts a child that ignores SIGTERM and writes its pid to child.pid,
// then says "started" and waits.
const stubbornCommand = `sh -c 'trap "" TERM; echo $$ > child.pid; exec sleep 300' & ` +
	`while [ ! -s child.pid ]; do sleep 0.01; done; echo started; wait`

// childGone waits until the process whose id is in ws/child.pid is gone (or a zombie).
func childGone(t *testing.T, ws string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ws, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	testagents.WatchProcess(t, pid).WaitGone(t, 10*time.Second)
}

// TestTerminalKillAndReleaseEndEverything: terminal/kill and terminal/release end the
// command and its child that ignores SIGTERM; after kill the exit says the signal and the
// output stays readable.
func TestTerminalKillAndReleaseEndEverything(t *testing.T) {
	for _, then := range []string{"kill", "release"} {
		t.Run(then, func(t *testing.T) {
			r := newTermRig(t, true)
			rep := r.run(t, testagents.TerminalScript{Command: stubbornCommand, Ready: "started", Then: then})
			if rep.CreateErr != "" || len(rep.Errors) > 0 {
				t.Fatalf("report %+v", rep)
			}
			childGone(t, r.ws)
			if then == "kill" {
				exit := decode[exitAnswer](t, rep.Exit)
				if exit.Signal == nil || *exit.Signal == "" {
					t.Errorf("exit after kill %s, want a signal", rep.Exit)
				}
				if out := decode[outputAnswer](t, rep.Output); !strings.Contains(out.Output, "started") {
					t.Errorf("output after kill %+v", out)
				}
			}
			r.validTrace(t)
		})
	}
}

// TestTerminalEndsWithTurnAndAgent: cancelling the turn kills the running command (the
// agent then reads how it ended); so does the end of the connection.
func TestTerminalEndsWithTurnAndAgent(t *testing.T) {
	for _, how := range []string{"cancel", "close"} {
		t.Run(how, func(t *testing.T) {
			r := newTermRig(t, true)
			data, _ := json.Marshal(testagents.TerminalScript{Command: stubbornCommand, Then: "hold"})
			done := make(chan sdk.StopReason, 1)
			go func() {
				stop, _ := r.sess.Prompt(context.Background(), text(string(data)))
				done <- stop
			}()
			r.rec.waitUntil(t, "the command's start", func() bool { return strings.Contains(r.rec.only(t).Output, "started") })
			if how == "cancel" {
				if err := r.sess.Cancel(); err != nil {
					t.Fatal(err)
				}
				if stop := <-done; stop != sdk.StopReasonCancelled {
					t.Errorf("stop reason %q", stop)
				}
				rep := r.report(t)
				if exit := decode[exitAnswer](t, rep.Exit); exit.Signal == nil {
					t.Errorf("exit after the cancel %s, want a signal", rep.Exit)
				}
			} else {
				r.conn.Close()
				<-done
			}
			childGone(t, r.ws)
			r.rec.waitUntil(t, "the watcher's final output", func() bool { return r.rec.only(t).Exited })
			if s := r.rec.only(t); !s.Killed {
				t.Errorf("the watcher's last snapshot %+v does not say killed", s)
			}
		})
	}
}

// TestTerminalHostileOutput: bytes that are not UTF-8 reach the agent as U+FFFD, never as
// invalid JSON text; escape sequences reach it as printed (it asked for the output) while
// the watcher, which shows it, gets them too and sanitizes them itself (chat does).
func TestTerminalHostileOutput(t *testing.T) {
	r := newTermRig(t, true)
	rep := r.run(t, testagents.TerminalScript{Command: `printf 'a\377b\033[2Jc\342\202'`, Then: "wait"})
	out := decode[outputAnswer](t, rep.Output)
	if want := "a\uFFFDb\x1b[2Jc\uFFFD"; out.Output != want {
		t.Errorf("output %q, want %q", out.Output, want)
	}
	// Within the limit even once the bad bytes are replaced.
	limit := 4
	r.newSession(t)
	rep = r.run(t, testagents.TerminalScript{Command: `printf '\377a\377b\377'`, Limit: &limit, Then: "wait"})
	if out := decode[outputAnswer](t, rep.Output); len(out.Output) > limit || !out.Truncated || !utf8.ValidString(out.Output) {
		t.Errorf("output %q (%d bytes), truncated %v: want at most %d bytes", out.Output, len(out.Output), out.Truncated, limit)
	}
	r.validTrace(t)
}

// TestTerminalIdsNeverRepeat: two connections (an agent and its restart) never give the
// same terminal id, so that a tool call of the first still on screen never shows the
// second's output.
func TestTerminalIdsNeverRepeat(t *testing.T) {
	var ids []string
	for range 2 {
		r := newTermRig(t, true)
		r.run(t, testagents.TerminalScript{Command: "true", Then: "wait"})
		r.rec.tmu.Lock()
		for id := range r.rec.snaps {
			ids = append(ids, id)
		}
		r.rec.tmu.Unlock()
	}
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Errorf("terminal ids %q, want two different ones", ids)
	}
}
