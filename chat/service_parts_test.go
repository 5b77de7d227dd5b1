package chat_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	sdk "github.com/coder/acp-go-sdk"
)

// This file holds small implementations of the Service's own interfaces, written for the
// unit tests of its logic (queueing, cancel, sessions, notices). The Service over the real
// supervisor, ACP client, store and demo agent is tested in package main.

// testAgents hands out turns on the current process of each agent.
type testAgents struct {
	mu    sync.Mutex
	conns map[string]*testConn
	// gate, when set for an agent, holds Acquire until it is closed (no free slot).
	gate     map[string]chan struct{}
	err      error // when set, Acquire fails with it
	acquired int
	released int
}

func newAgents(conns ...*testConn) *testAgents {
	a := &testAgents{conns: map[string]*testConn{}, gate: map[string]chan struct{}{}}
	for _, c := range conns {
		a.conns[c.agent] = c
	}
	return a
}

func (a *testAgents) Acquire(ctx context.Context, agent string) (chat.Lease, error) {
	a.mu.Lock()
	gate, err := a.gate[agent], a.err
	a.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.conns[agent]
	if c == nil {
		return nil, fmt.Errorf("%q: unknown agent", agent)
	}
	a.acquired++
	return &testLease{a: a, conn: c}, nil
}

// restart replaces an agent's process: its next leases give a new connection.
func (a *testAgents) restart(c *testConn) *testConn {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := newConn(c.agent, c.info, c.script)
	n.store = c.store
	a.conns[c.agent] = n
	return n
}

func (a *testAgents) leases() (acquired, released int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.acquired, a.released
}

type testLease struct {
	a    *testAgents
	conn *testConn
	once sync.Once
}

func (l *testLease) Conn() chat.AgentConn { return l.conn }

func (l *testLease) Release() {
	l.once.Do(func() {
		l.a.mu.Lock()
		l.a.released++
		l.a.mu.Unlock()
	})
}

// script is what the agent does with a prompt.
type script func(s *testSession, ctx context.Context, text string) (sdk.StopReason, error)

// replyScript streams "re: TEXT" and ends the turn.
func replyScript(s *testSession, _ context.Context, text string) (sdk.StopReason, error) {
	s.h.Chunk(chat.ChunkAgentMessage, "re: ")
	s.h.Chunk(chat.ChunkAgentMessage, text)
	return sdk.StopReasonEndTurn, nil
}

// held streams "working", then waits for release or cancel.
func held(release <-chan struct{}) script {
	return func(s *testSession, ctx context.Context, text string) (sdk.StopReason, error) {
		s.h.Chunk(chat.ChunkAgentMessage, "working on "+text)
		s.started <- text
		select {
		case <-release:
			return sdk.StopReasonEndTurn, nil
		case <-s.cancelled:
			return sdk.StopReasonCancelled, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// sessionStore is the agent's memory of sessions across processes, for session/load.
type sessionStore struct {
	mu      sync.Mutex
	history map[string][]string // id → texts said in it
}

// testConn is one process of an agent.
type testConn struct {
	agent  string
	info   chat.ConnInfo
	script script
	store  *sessionStore
	files  map[string]string

	mu       sync.Mutex
	calls    []string
	sessions []*testSession
	loadErr  error
}

func newConn(agent string, info chat.ConnInfo, sc script) *testConn {
	if sc == nil {
		sc = replyScript
	}
	if info.Cwd == "" {
		info.Cwd = "/ws/" + agent
	}
	return &testConn{agent: agent, info: info, script: sc, store: &sessionStore{history: map[string][]string{}}}
}

func (c *testConn) Info() chat.ConnInfo { return c.info }

func (c *testConn) Files() chat.FileSource { return mapFiles(c.files) }

func (c *testConn) NewSession(ctx context.Context, cwd string, h chat.SessionHandler) (chat.AgentSession, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.store.mu.Lock()
	id := fmt.Sprintf("%s-s%d", c.agent, len(c.store.history)+1)
	c.store.history[id] = nil
	c.store.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, "new "+cwd)
	s := newSession(c, id, h)
	c.sessions = append(c.sessions, s)
	return s, nil
}

func (c *testConn) LoadSession(ctx context.Context, id, cwd string, h chat.SessionHandler) (chat.AgentSession, error) {
	c.mu.Lock()
	c.calls = append(c.calls, "load "+id+" "+cwd)
	loadErr := c.loadErr
	c.mu.Unlock()
	if !c.info.LoadSession {
		return nil, errors.New("no session/load")
	}
	if loadErr != nil {
		return nil, loadErr
	}
	c.store.mu.Lock()
	past, ok := c.store.history[id]
	c.store.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown session %s", id)
	}
	// The replay, as an agent sends it before answering the load.
	for _, text := range past {
		h.Chunk(chat.ChunkUserMessage, text)
		h.Chunk(chat.ChunkAgentMessage, "re: "+text)
		h.Update(sdk.StartToolCall(sdk.ToolCallId("t-"+text), "replayed tool"))
	}
	h.Update(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
		AvailableCommands: []sdk.AvailableCommand{{Name: "replayed-command", Description: "kept"}},
	}})
	c.mu.Lock()
	defer c.mu.Unlock()
	s := newSession(c, id, h)
	c.sessions = append(c.sessions, s)
	return s, nil
}

func (c *testConn) callLog() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.calls)
}

func (c *testConn) session(i int) *testSession {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i >= len(c.sessions) {
		return nil
	}
	return c.sessions[i]
}

// testSession is one ACP session of a testConn. Cancel ends the current prompt's
// permission requests, as the acp package's sessions do.
type testSession struct {
	c         *testConn
	id        string
	h         chat.SessionHandler
	started   chan string
	cancelled chan struct{}

	mu       sync.Mutex
	prompts  [][]sdk.ContentBlock
	cancels  int
	closed   bool
	permStop context.CancelFunc
}

func newSession(c *testConn, id string, h chat.SessionHandler) *testSession {
	return &testSession{c: c, id: id, h: h, started: make(chan string, 16), cancelled: make(chan struct{}, 1)}
}

func (s *testSession) ID() string { return s.id }

func (s *testSession) Prompt(ctx context.Context, blocks []sdk.ContentBlock) (sdk.StopReason, error) {
	s.mu.Lock()
	s.prompts = append(s.prompts, blocks)
	s.mu.Unlock()
	var text string
	for _, b := range blocks {
		if b.Text != nil {
			text += b.Text.Text
		}
	}
	stop, err := s.c.script(s, ctx, text)
	if err == nil {
		s.c.store.mu.Lock()
		s.c.store.history[s.id] = append(s.c.store.history[s.id], text)
		s.c.store.mu.Unlock()
	}
	return stop, err
}

func (s *testSession) Cancel() error {
	s.mu.Lock()
	s.cancels++
	if s.permStop != nil {
		s.permStop()
	}
	s.mu.Unlock()
	select {
	case s.cancelled <- struct{}{}:
	default:
	}
	return nil
}

func (s *testSession) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

// askPermission asks the client for permission within the prompt, as an agent does; the
// request's context ends when the session is cancelled.
func (s *testSession) askPermission(title string) sdk.RequestPermissionResponse {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.permStop = cancel
	s.mu.Unlock()
	defer cancel()
	return s.h.RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(s.id),
		ToolCall:  sdk.ToolCallUpdate{ToolCallId: "w1", Title: sdk.Ptr(title)},
		Options: []sdk.PermissionOption{
			{OptionId: "yes", Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce},
			{OptionId: "no", Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce},
		},
	})
}

func (s *testSession) stats() (prompts [][]sdk.ContentBlock, cancels int, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.prompts), s.cancels, s.closed
}

// mapFiles is a workspace of a few files.
type mapFiles map[string]string

func (m mapFiles) Known(p string) bool { _, ok := m[p]; return ok }

func (m mapFiles) Read(p string) (string, error) {
	if t, ok := m[p]; ok {
		return t, nil
	}
	return "", errors.New("no such file")
}

func (m mapFiles) URI(p string) string { return "file:///ws/" + p }

// memHistory is a history kept in memory, with the store's contract: ids handed out by
// Save, pages by id.
type memHistory struct {
	mu      sync.Mutex
	nextID  int64
	convs   map[chat.Key]*memTranscript
	openErr error
}

func newHistory() *memHistory { return &memHistory{convs: map[chat.Key]*memTranscript{}} }

func (h *memHistory) Open(k chat.Key) (chat.Transcript, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.openErr != nil {
		return nil, h.openErr
	}
	t := h.convs[k]
	if t == nil {
		t = &memTranscript{h: h, sessions: map[string]string{}}
		h.convs[k] = t
	}
	t.ids = map[int64]int64{} // one conversation's Seq numbers
	return t, nil
}

func (h *memHistory) Flush() error { return nil }

type memTranscript struct {
	h        *memHistory
	entries  []chat.Entry // by id order
	ids      map[int64]int64
	sessions map[string]string
	setCalls int
}

func (t *memTranscript) Save(e chat.Entry) {
	t.h.mu.Lock()
	defer t.h.mu.Unlock()
	if e.ID == 0 {
		e.ID = t.ids[e.Seq]
	}
	if e.ID == 0 {
		t.h.nextID++
		e.ID = t.h.nextID
		t.ids[e.Seq] = e.ID
		t.entries = append(t.entries, e)
		return
	}
	for i := range t.entries {
		if t.entries[i].ID == e.ID {
			t.entries[i] = e
		}
	}
}

func (t *memTranscript) LastPage(n int) ([]chat.Entry, error) {
	t.h.mu.Lock()
	defer t.h.mu.Unlock()
	return clean(t.entries[max(0, len(t.entries)-n):]), nil
}

func (t *memTranscript) Before(id int64, n int) ([]chat.Entry, error) {
	t.h.mu.Lock()
	defer t.h.mu.Unlock()
	i := slices.IndexFunc(t.entries, func(e chat.Entry) bool { return e.ID == id })
	if i < 0 {
		return nil, errors.New("no such entry")
	}
	return clean(t.entries[max(0, i-n):i]), nil
}

// clean returns entries as a store gives them back: no Seq, no Rev.
func clean(es []chat.Entry) []chat.Entry {
	out := slices.Clone(es)
	for i := range out {
		out[i].Seq, out[i].Rev = 0, 0
	}
	return out
}

func (t *memTranscript) Session(agent string) (string, error) {
	t.h.mu.Lock()
	defer t.h.mu.Unlock()
	return t.sessions[agent], nil
}

func (t *memTranscript) SetSession(agent, id string) error {
	t.h.mu.Lock()
	defer t.h.mu.Unlock()
	t.sessions[agent] = id
	t.setCalls++
	return nil
}

func (t *memTranscript) texts() []string {
	t.h.mu.Lock()
	defer t.h.mu.Unlock()
	var out []string
	for _, e := range t.entries {
		out = append(out, string(e.Kind)+":"+e.Text)
	}
	return out
}

// results collects TurnEnded calls.
type results struct {
	ch chan chat.TurnResult
}

func newResults() *results { return &results{ch: make(chan chat.TurnResult, 64)} }

func (r *results) ended(_ chat.Key, res chat.TurnResult) { r.ch <- res }

func (r *results) next(t *testing.T) chat.TurnResult {
	t.Helper()
	select {
	case res := <-r.ch:
		return res
	case <-time.After(10 * time.Second):
		t.Fatal("no turn ended within 10s")
		return chat.TurnResult{}
	}
}

func (r *results) none(t *testing.T) {
	t.Helper()
	select {
	case res := <-r.ch:
		t.Fatalf("a turn ended unexpectedly: %+v", res)
	default:
	}
}

// receive waits for a value on ch.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen within 10s", what)
		var zero T
		return zero
	}
}

// texts sums a conversation up as kind:text lines.
func texts(c *chat.Conversation) []string {
	var out []string
	for _, e := range c.Snapshot() {
		out = append(out, string(e.Kind)+":"+e.Text)
	}
	return out
}

// promptText joins the text blocks of a prompt, and names the other blocks.
func promptText(blocks []sdk.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.Resource != nil:
			parts = append(parts, "[resource "+b.Resource.Resource.TextResourceContents.Uri+"]")
		case b.ResourceLink != nil:
			parts = append(parts, "[link "+b.ResourceLink.Uri+"]")
		}
	}
	return strings.Join(parts, "|")
}
