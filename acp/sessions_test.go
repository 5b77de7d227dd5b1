package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/testagents"
	sdk "github.com/coder/acp-go-sdk"
)

// startMode starts a shared test agent (testagents) in mode, connected and initialized.
func startModeWith(t *testing.T, mode string, opts acp.Options) *acp.Conn {
	t.Helper()
	p := startCommand(t, exec.Command(os.Args[0]), testagents.ModeEnv(mode))
	c := connect(t, p, opts)
	if _, err := c.Initialize(testContext(t)); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

// reply runs a turn and returns the agent's reply.
func reply(t *testing.T, c *acp.Conn, cwd, msg string) string {
	t.Helper()
	rec := newRecorder()
	s, err := c.NewSession(testContext(t), cwd, rec)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	prompt(t, s, msg)
	return rec.textOf(acp.AgentMessageChunk)
}

func TestSessionsAreListedResumedAndClosed(t *testing.T) {
	c := startModeWith(t, "sessions", acp.Options{})
	caps := c.SessionCaps()
	if !caps.List || !caps.Resume || !caps.Close || caps.Load {
		t.Fatalf("caps = %+v, want list, resume and close", caps)
	}
	list, err := c.ListSessions(testContext(t), "/work/project")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(testagents.SessionsListed) {
		t.Fatalf("listed %d sessions over the two pages, want %d: %+v", len(list), len(testagents.SessionsListed), list)
	}
	for i, s := range list {
		if s.ID != testagents.SessionsListedIDs[i] || s.Cwd != "/work/project" || s.Updated.Day() != 20+i {
			t.Errorf("session %d = %+v", i, s)
		}
		if hasControl(s.Title) || !strings.Contains(testagents.SessionsListed[i], strings.Fields(s.Title)[0]) {
			t.Errorf("title %q: not the agent's, sanitized", s.Title)
		}
	}
	rec := newRecorder()
	s, err := c.ResumeSession(testContext(t), "past-2", "/work/project", rec)
	if err != nil {
		t.Fatal(err)
	}
	rec.waitUntil(t, "the resumed session's title and usage", func() bool {
		return rec.kindCount("session_info_update") == 1 && rec.kindCount("usage_update") == 1
	})
	if err := s.CloseRemote(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ResumeSession(testContext(t), "nope", "/work/project", newRecorder()); err == nil {
		t.Error("resuming a session the agent does not know succeeded")
	}
	if got := reply(t, c, "/work/project", "heard"); got != "heard: resumed past-2, closed past-2" {
		t.Errorf("the agent heard %q", got)
	}
}

func TestSessionsOfAnAgentThatOnlyLoads(t *testing.T) {
	c := startModeWith(t, "sessions-load", acp.Options{})
	if caps := c.SessionCaps(); !caps.List || caps.Resume || caps.Close || !caps.Load {
		t.Fatalf("caps = %+v, want list and load only", caps)
	}
	if _, err := c.ResumeSession(testContext(t), "past-1", "/w", newRecorder()); !errors.Is(err, acp.ErrNoResume) {
		t.Fatalf("resume = %v, want ErrNoResume", err)
	}
	s, err := c.LoadSession(testContext(t), "past-1", "/w", newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CloseRemote(testContext(t)); err != nil {
		t.Fatal(err)
	}
	// No session/close: the agent did not offer it.
	if got := reply(t, c, "/w", "heard"); got != "heard: loaded past-1" {
		t.Errorf("the agent heard %q", got)
	}
}

func TestAGivenUpRequestIsCancelledWithTheAgent(t *testing.T) {
	c := startModeWith(t, "sessions", acp.Options{})
	ctx, cancel := context.WithCancel(testContext(t))
	done := make(chan error, 1)
	go func() {
		_, err := c.ListSessions(ctx, "/stall")
		done <- err
	}()
	// The list is with the agent once the agent has read it: the next turn's answer
	// comes after it on the same pipe, so "heard" below sees the cancel.
	time.AfterFunc(200*time.Millisecond, cancel)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the stalled list ended with %v", err)
	}
	if got := reply(t, c, "/w", "heard"); !strings.HasPrefix(got, "heard: cancel_request ") {
		t.Errorf("the agent heard %q, want the list's $/cancel_request", got)
	}
}

// elicitor is a test acp.Elicitor.
type elicitor struct {
	mu       sync.Mutex
	asked    []acp.Elicitation
	complete []string
	answer   func(ctx context.Context, e acp.Elicitation) acp.ElicitationResult
	gone     chan struct{} // closed when a request's context ends
}

func (el *elicitor) Elicit(ctx context.Context, e acp.Elicitation) acp.ElicitationResult {
	el.mu.Lock()
	el.asked = append(el.asked, e)
	el.mu.Unlock()
	return el.answer(ctx, e)
}

func (el *elicitor) Complete(agent, id string) {
	el.mu.Lock()
	defer el.mu.Unlock()
	el.complete = append(el.complete, agent+"/"+id)
}

func TestElicitationFormIsDecodedAndAnswered(t *testing.T) {
	el := &elicitor{answer: func(_ context.Context, e acp.Elicitation) acp.ElicitationResult {
		return acp.ElicitationResult{Action: acp.ElicitAccept, Content: map[string]any{
			"name": "web", "replicas": int64(3), "region": "eu", "tags": []string{"fast"}, "confirm": true,
			"not-asked": "dropped"}}
	}}
	c := startModeWith(t, "sessions", acp.Options{Elicit: el})
	got := reply(t, c, "/w", "elicit form")
	var ans map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(got, "answer: ")), &ans); err != nil {
		t.Fatalf("reply %q: %v", got, err)
	}
	content, _ := ans["content"].(map[string]any)
	if ans["action"] != "accept" || content["name"] != "web" || content["replicas"] != 3.0 || content["region"] != "eu" ||
		content["confirm"] != true || content["not-asked"] != nil {
		t.Errorf("the agent got %s", got)
	}
	e := el.asked[0]
	if e.Mode != acp.ElicitForm || e.Title != "Deploy" || hasControl(e.Message) || e.Agent != "tester" {
		t.Errorf("elicitation = %+v", e)
	}
	var kinds []string
	for _, f := range e.Fields {
		kinds = append(kinds, f.Name)
	}
	if strings.Join(kinds, " ") != "name email replicas ratio confirm region tags" {
		t.Errorf("fields in the order %v, want the schema's", kinds)
	}
	want := map[string]acp.FieldKind{"name": acp.FieldText, "replicas": acp.FieldInteger, "ratio": acp.FieldNumber,
		"confirm": acp.FieldBoolean, "region": acp.FieldChoice, "tags": acp.FieldMulti}
	for _, f := range e.Fields {
		if k, ok := want[f.Name]; ok && f.Kind != k {
			t.Errorf("field %s is of kind %d, want %d", f.Name, f.Kind, k)
		}
		if f.Required != (f.Name == "name" || f.Name == "region") {
			t.Errorf("field %s required = %v", f.Name, f.Required)
		}
	}
	if r := e.Fields[5]; len(r.Choices) != 2 || r.Choices[0] != (acp.Choice{Value: "eu", Title: "Europe"}) {
		t.Errorf("region choices %+v", r.Choices)
	}
	if r := e.Fields[2]; r.Default != "2" || !r.HasDefault || *r.Min != 1 || *r.Max != 9 {
		t.Errorf("replicas %+v", r)
	}
}

func TestElicitationDeclinedCancelledAndWithoutAnswerer(t *testing.T) {
	for _, tc := range []struct {
		action string
		opts   acp.Options
	}{
		{"decline", acp.Options{Elicit: &elicitor{answer: func(context.Context, acp.Elicitation) acp.ElicitationResult {
			return acp.ElicitationResult{Action: acp.ElicitDecline}
		}}}},
		{"cancel", acp.Options{Elicit: &elicitor{answer: func(context.Context, acp.Elicitation) acp.ElicitationResult {
			return acp.ElicitationResult{Action: "whatever"}
		}}}},
		{"cancel", acp.Options{}},
	} {
		c := startModeWith(t, "sessions", tc.opts)
		if got := reply(t, c, "/w", "elicit form"); got != `answer: {"action":"`+tc.action+`"}` {
			t.Errorf("the agent got %s, want %s", got, tc.action)
		}
	}
}

func TestElicitationURLIsAcceptedThenCompleted(t *testing.T) {
	el := &elicitor{answer: func(_ context.Context, e acp.Elicitation) acp.ElicitationResult {
		return acp.ElicitationResult{Action: acp.ElicitAccept}
	}}
	c := startModeWith(t, "sessions", acp.Options{Elicit: el})
	if got := reply(t, c, "/w", "elicit url"); got != `answer: {"action":"accept"}` {
		t.Errorf("the agent got %s", got)
	}
	// elicitation/complete came before the reply, on the same pipe.
	el.mu.Lock()
	defer el.mu.Unlock()
	if e := el.asked[0]; e.URL != testagents.ElicitURL || e.ElicitationID != "el-1" || e.Mode != acp.ElicitURL {
		t.Errorf("elicitation %+v", e)
	}
	if len(el.complete) != 1 || el.complete[0] != "tester/el-1" {
		t.Errorf("completions %v", el.complete)
	}
}

func TestTheAgentCancelsItsOwnRequests(t *testing.T) {
	waitCtx := func(ctx context.Context) { <-ctx.Done() }
	el := &elicitor{answer: func(ctx context.Context, e acp.Elicitation) acp.ElicitationResult {
		waitCtx(ctx)
		return acp.ElicitationResult{Action: acp.ElicitAccept, Content: map[string]any{"x": "late"}}
	}}
	c := startModeWith(t, "sessions", acp.Options{Elicit: el})
	if got := reply(t, c, "/w", "elicit cancelled"); got != `answer: {"action":"cancel"}` {
		t.Errorf("the cancelled elicitation was answered %s", got)
	}
	rec := newRecorder()
	rec.setPerm(func(ctx context.Context, req sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
		waitCtx(ctx)
		return allow(ctx, req)
	})
	s, err := c.NewSession(testContext(t), "/w", rec)
	if err != nil {
		t.Fatal(err)
	}
	prompt(t, s, "perm cancelled")
	if got := rec.textOf(acp.AgentMessageChunk); !strings.Contains(got, `"outcome":"cancelled"`) {
		t.Errorf("the cancelled permission was answered %s", got)
	}
}

func TestElicitationFieldsValidate(t *testing.T) {
	one, nine := 1.0, 9.0
	re := mustField(t, `{"type":"string","pattern":"^[a-z]+$","minLength":2,"maxLength":4}`)
	for _, tc := range []struct {
		f      acp.Field
		in     string
		want   any
		en, fr string
	}{
		{acp.Field{Kind: acp.FieldText, Required: true, MinLength: -1, MaxLength: -1}, "", nil, "this field is required", "ce champ est obligatoire"},
		{acp.Field{Kind: acp.FieldText, MinLength: -1, MaxLength: -1}, "", nil, "", ""},
		{re, "a", nil, "at least 2 characters", "au moins 2 caractères"},
		{re, "abcde", nil, "at most 4 characters", "au plus 4 caractères"},
		{re, "AB", nil, "does not match the expected form (^[a-z]+$)", "ne correspond pas à la forme attendue (^[a-z]+$)"},
		{re, "abc", "abc", "", ""},
		{mustField(t, `{"type":"string","format":"email"}`), "bob", nil, "not an email address", "ce n'est pas une adresse électronique"},
		{mustField(t, `{"type":"string","format":"date"}`), "2026-12-31", "2026-12-31", "", ""},
		{acp.Field{Kind: acp.FieldInteger, Min: &one, Max: &nine}, "2.5", nil, "not a whole number", "ce n'est pas un nombre entier"},
		{acp.Field{Kind: acp.FieldInteger, Min: &one, Max: &nine}, "12", nil, "at most 9", "au plus 9"},
		{acp.Field{Kind: acp.FieldInteger, Min: &one, Max: &nine}, " 3 ", int64(3), "", ""},
		{acp.Field{Kind: acp.FieldNumber, Min: &one}, "0,5", nil, "at least 1", "au moins 1"},
		{acp.Field{Kind: acp.FieldNumber}, "x", nil, "not a number", "ce n'est pas un nombre"},
		{acp.Field{Kind: acp.FieldNumber}, "2,5", 2.5, "", ""},
		{acp.Field{Kind: acp.FieldChoice, Choices: []acp.Choice{{Value: "eu"}}}, "us", nil, "pick one of the choices", "choisissez l'une des valeurs proposées"},
	} {
		for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
			want := tc.en
			if lang == i18n.French {
				want = tc.fr
			}
			v, msg := tc.f.Value(tc.in, lang)
			if msg != want || (msg == "" && v != tc.want) {
				t.Errorf("%+v %q in %v: %v, %q; want %v, %q", tc.f.Kind, tc.in, lang, v, msg, tc.want, want)
			}
		}
	}
	multi := acp.Field{Kind: acp.FieldMulti, MinItems: 1, MaxItems: 2, Choices: []acp.Choice{{Value: "a"}, {Value: "b"}, {Value: "c"}}}
	if _, msg := multi.Values([]string{"a", "b", "c"}, i18n.French); msg != "choisissez-en au plus 2" {
		t.Errorf("three picked: %q", msg)
	}
	if _, msg := multi.Values(nil, i18n.English); msg != "pick at least 1" {
		t.Errorf("none picked: %q", msg)
	}
	if v, msg := multi.Values([]string{"a", "zz"}, i18n.English); msg != "" || len(v) != 1 || v[0] != "a" {
		t.Errorf("a and an unknown value: %v %q", v, msg)
	}
}

// mustField decodes one property of a schema the way an elicitation's are.
func mustField(t *testing.T, prop string) acp.Field {
	t.Helper()
	f, ok := acp.DecodeField("f", json.RawMessage(prop))
	if !ok {
		t.Fatalf("%s did not decode", prop)
	}
	return f
}

// TestTraceOfSessionsAndElicitationsIsValid validates against the official schema every
// message Sidekicks sent in the calls of this file: the session methods, the answers to
// elicitations, $/cancel_request.
func TestTraceOfSessionsAndElicitationsIsValid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.log")
	tr := acp.OpenTrace(path)
	el := &elicitor{answer: func(ctx context.Context, e acp.Elicitation) acp.ElicitationResult {
		if e.Mode == acp.ElicitURL {
			return acp.ElicitationResult{Action: acp.ElicitAccept}
		}
		if len(e.Fields) == 1 {
			<-ctx.Done()
		}
		return acp.ElicitationResult{Action: acp.ElicitAccept, Content: map[string]any{"name": "web", "replicas": int64(3),
			"ratio": 0.5, "confirm": false, "region": "us", "tags": []string{"fast", "safe"}}}
	}}
	c := startModeWith(t, "sessions", acp.Options{Trace: tr, Elicit: el})
	if _, err := c.ListSessions(testContext(t), "/w"); err != nil {
		t.Fatal(err)
	}
	s, err := c.ResumeSession(testContext(t), "past-1", "/w", newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	s.CloseRemote(testContext(t))
	ctx, cancel := context.WithTimeout(testContext(t), 100*time.Millisecond)
	defer cancel()
	c.ListSessions(ctx, "/stall")
	for _, msg := range []string{"elicit form", "elicit url", "elicit cancelled", "heard"} {
		reply(t, c, "/w", msg)
	}
	c2 := startModeWith(t, "sessions-load", acp.Options{Trace: tr, Elicit: el})
	if _, err := c2.LoadSession(testContext(t), "past-3", "/w", newRecorder()); err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	schema := loadSchema(t)
	requests := map[string]string{}
	methods := map[string]int{}
	for i, l := range readLines(t, path) {
		tl, err := parseTraceLine(l)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tl.msg), &m); err != nil {
			t.Fatal(err)
		}
		var id, method string
		json.Unmarshal(m["method"], &method)
		if raw, ok := m["id"]; ok {
			id = string(raw)
		}
		if !tl.sent {
			if method != "" && id != "" {
				requests[tl.agent+id] = method
			}
			continue
		}
		if method != "" {
			methods[method]++
		} else {
			methods["answer to "+requests[tl.agent+id]]++
		}
		byAgent := map[string]string{}
		for k, v := range requests {
			if strings.HasPrefix(k, tl.agent) {
				byAgent[strings.TrimPrefix(k, tl.agent)] = v
			}
		}
		if err := checkSent(schema, tl.msg, m, method, id, byAgent); err != nil {
			t.Errorf("line %d: %v\n%.300s", i+1, err, tl.msg)
		}
	}
	for _, want := range []string{"session/list", "session/resume", "session/close", "session/load", acp.CancelRequestMethod, "answer to elicitation/create"} {
		if methods[want] == 0 {
			t.Errorf("the trace has no %s: %v", want, methods)
		}
	}
}
