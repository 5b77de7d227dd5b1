// Package demoagent is a small but real ACP agent that needs no network: it streams
// markdown replies with code, thinks, plans, reads and writes files through the client's
// fs methods after asking permission, announces commands, reports usage, honours cancel and
// session/load. `sidekicks demo-agent` runs it on stdin and stdout; tests use it as a peer.
//
// It uses the wire types of github.com/coder/acp-go-sdk and its own JSON-RPC framing.
package demoagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// Version is the version the agent reports in agentInfo.
const Version = "1.0.0"

// DefaultWordDelay is the pause between streamed words that `sidekicks demo-agent` uses
// when --delay is not given.
const DefaultWordDelay = 20 * time.Millisecond

// Options configure a demo agent.
type Options struct {
	// Name is how the agent introduces itself ("I am NAME, …"); "" means "demo".
	Name string
	// WordDelay is the pause between streamed words; 0 streams as fast as possible (the
	// command line's default is DefaultWordDelay).
	WordDelay time.Duration
	// StateDir is where session histories are kept for session/load across restarts; ""
	// means StateDir(), and "-" keeps them in memory only.
	StateDir string
	// Log receives the agent's diagnostics (malformed lines, state file errors); nil
	// discards them.
	Log io.Writer
	// Exit ends the process for /crash; nil means os.Exit. When it returns (tests), Run
	// stops and returns ErrCrashed.
	Exit func(code int)
}

// ErrCrashed is returned by Run after /crash when Options.Exit returned.
var ErrCrashed = errors.New("the demo agent crashed on purpose (/crash)")

// agent is the state of one Run.
type agent struct {
	opts     Options
	name     string
	wire     *wire
	sessions *sessions
	log      func(format string, args ...any)

	ctx     context.Context // ends when Run ends: every turn stops
	turns   sync.WaitGroup
	crashed chan struct{}
	crash   sync.Once
	toolSeq atomic.Int64 // numbers tool calls
	// run is random, drawn at each Run: it prefixes the numbers of its tool calls, so that a
	// restarted agent that reloads a session does not give its calls the ids of earlier ones.
	run string

	mu          sync.Mutex // guards the client's fs capabilities
	clientRead  bool
	clientWrite bool
}

// Run serves one client on in and out until in reaches end of file (it returns nil) or ctx
// ends. Turns still running are cancelled and waited for before it returns, so out must
// keep being read (or be closed) until then. When ctx ends first, a goroutine stays
// blocked reading in until in returns; it handles nothing more.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()

	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	var logMu sync.Mutex
	logf := func(format string, args ...any) {
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(logw, "demo-agent: "+format+"\n", args...)
	}
	dir := opts.StateDir
	switch dir {
	case "":
		dir = StateDir()
	case "-":
		dir = ""
	}
	a := &agent{
		opts:     opts,
		name:     opts.Name,
		wire:     newWire(out),
		sessions: newSessions(dir, logf),
		log:      logf,
		ctx:      ctx,
		crashed:  make(chan struct{}),
		run:      runID(),
	}
	if a.name == "" {
		a.name = "demo"
	}
	a.sessions.prune(time.Now(), stateMaxAge)

	lines := make(chan []byte)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		readErr <- readLines(in, maxLineBytes, lines, func(n int64) {
			logf("skipped a line of %d bytes (over %d)", n, maxLineBytes)
		}, done)
	}()

	var err error
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-a.crashed:
			err = ErrCrashed
			break loop
		case err = <-readErr:
			break loop
		case line := <-lines:
			a.handleLine(line)
		}
	}
	stop()
	a.wire.close()
	a.turns.Wait()
	return err
}

// handleLine decodes one line and dispatches it; it runs on Run's goroutine, so the
// handlers it calls directly must not wait for the client.
func (a *agent) handleLine(line []byte) {
	var m inMessage
	if err := json.Unmarshal(line, &m); err != nil {
		a.log("ignoring a malformed line (%v): %.200q", err, line)
		return
	}
	hasID := len(m.ID) > 0
	switch {
	case m.Method != "" && hasID:
		a.handleRequest(&m)
	case m.Method != "":
		a.handleNotification(&m)
	case hasID:
		if !a.wire.deliver(&m) {
			a.log("ignoring a response with an unknown id %s", m.ID)
		}
	default:
		a.log("ignoring a message that is neither request, response nor notification: %.200q", line)
	}
}

func (a *agent) handleRequest(m *inMessage) {
	var err error
	switch m.Method {
	case sdk.AgentMethodInitialize:
		err = a.initialize(m)
	case sdk.AgentMethodSessionNew:
		err = a.newSession(m)
	case sdk.AgentMethodSessionLoad:
		err = a.loadSession(m)
	case sdk.AgentMethodSessionPrompt:
		err = a.prompt(m)
	default:
		err = a.wire.respondError(m.ID, codeMethodNotFound, "method not found: "+m.Method)
	}
	if err != nil && !errors.Is(err, errClosed) {
		a.log("answering %s: %v", m.Method, err)
	}
}

func (a *agent) handleNotification(m *inMessage) {
	if m.Method != sdk.AgentMethodSessionCancel {
		return // unknown notifications are ignored, as JSON-RPC wants
	}
	var p sdk.CancelNotification
	if err := json.Unmarshal(m.Params, &p); err != nil {
		a.log("ignoring a malformed session/cancel: %v", err)
		return
	}
	a.sessions.cancelTurn(string(p.SessionId))
}

// decodeParams decodes a request's params, answering invalid params on failure.
func (a *agent) decodeParams(m *inMessage, v any) bool {
	if len(m.Params) == 0 {
		_ = a.wire.respondError(m.ID, codeInvalidParams, "missing params for "+m.Method)
		return false
	}
	if err := json.Unmarshal(m.Params, v); err != nil {
		_ = a.wire.respondError(m.ID, codeInvalidParams, fmt.Sprintf("invalid params for %s: %v", m.Method, err))
		return false
	}
	return true
}

func (a *agent) initialize(m *inMessage) error {
	var p sdk.InitializeRequest
	if !a.decodeParams(m, &p) {
		return nil
	}
	a.mu.Lock()
	a.clientRead = p.ClientCapabilities.Fs.ReadTextFile
	a.clientWrite = p.ClientCapabilities.Fs.WriteTextFile
	a.mu.Unlock()
	title := "Sidekicks demo agent"
	return a.wire.respond(m.ID, sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersion(sdk.ProtocolVersionNumber),
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true},
		},
		AgentInfo:   &sdk.Implementation{Name: "sidekicks-demo", Title: &title, Version: Version},
		AuthMethods: []sdk.AuthMethod{},
	})
}

func (a *agent) newSession(m *inMessage) error {
	var p sdk.NewSessionRequest
	if !a.decodeParams(m, &p) {
		return nil
	}
	sess := a.sessions.create(p.Cwd)
	if err := a.wire.respond(m.ID, sdk.NewSessionResponse{SessionId: sdk.SessionId(sess.ID)}); err != nil {
		return err
	}
	return a.announceCommands(sess.ID)
}

func (a *agent) loadSession(m *inMessage) error {
	var p sdk.LoadSessionRequest
	if !a.decodeParams(m, &p) {
		return nil
	}
	sess, ok := a.sessions.get(string(p.SessionId))
	if !ok {
		return a.wire.respondError(m.ID, codeInvalidParams, fmt.Sprintf("unknown session %q", p.SessionId))
	}
	if p.Cwd != "" {
		a.sessions.setCwd(sess, p.Cwd)
	}
	history, _ := a.sessions.snapshot(sess)
	for _, r := range history {
		u := sdk.UpdateAgentMessageText(r.Text)
		if r.Role == "user" {
			u = sdk.UpdateUserMessageText(r.Text)
		}
		if err := a.update(sess.ID, u); err != nil {
			return err
		}
	}
	if err := a.announceCommands(sess.ID); err != nil {
		return err
	}
	return a.wire.respond(m.ID, sdk.LoadSessionResponse{})
}

// update sends one session/update notification.
func (a *agent) update(sessionID string, u sdk.SessionUpdate) error {
	return a.wire.notify(sdk.ClientMethodSessionUpdate, sdk.SessionNotification{
		SessionId: sdk.SessionId(sessionID),
		Update:    u,
	})
}

func (a *agent) announceCommands(sessionID string) error {
	cmds := make([]sdk.AvailableCommand, 0, len(commandList))
	for _, c := range commandList {
		ac := sdk.AvailableCommand{Name: c.name, Description: c.description}
		if c.hint != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: c.hint}}
		}
		cmds = append(cmds, ac)
	}
	return a.update(sessionID, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
		AvailableCommands: cmds,
	}})
}

// exit ends the process (or, in tests, Run) for /crash.
func (a *agent) exit(code int) {
	_ = a.wire.flush()
	if a.opts.Exit == nil {
		os.Exit(code)
	}
	a.opts.Exit(code)
	a.crash.Do(func() { close(a.crashed) })
}
