package acp_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaDir is the official ACP schema, copied into the repository (see its README.md).
const schemaDir = "../testdata/acp-schema"

// acpSchema compiles the official schema's definitions on demand.
type acpSchema struct {
	c     *jsonschema.Compiler
	cache map[string]*jsonschema.Schema
	// types maps a method to its parameters' type, from METHODS.txt; clientSide holds
	// the methods the client calls (client -> agent).
	types      map[string]string
	clientSide map[string]bool
}

func loadSchema(t *testing.T) *acpSchema {
	t.Helper()
	f, err := os.Open(filepath.Join(schemaDir, "schema.json"))
	if err != nil {
		t.Fatalf("the official ACP schema: %v", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	s := &acpSchema{c: jsonschema.NewCompiler(), cache: map[string]*jsonschema.Schema{}, types: map[string]string{}, clientSide: map[string]bool{}}
	if err := s.c.AddResource("acp.json", doc); err != nil {
		t.Fatal(err)
	}
	methods, err := os.ReadFile(filepath.Join(schemaDir, "METHODS.txt"))
	if err != nil {
		t.Fatal(err)
	}
	section := ""
	for _, l := range strings.Split(string(methods), "\n") {
		if strings.HasPrefix(l, "== ") {
			section = l
			continue
		}
		f := strings.Fields(l)
		if len(f) >= 3 && (f[1] == "request" || f[1] == "notification") {
			s.types[f[0]] = f[2]
			if strings.Contains(section, "client -> agent") || strings.Contains(section, "protocol level") {
				s.clientSide[f[0]] = true
			}
		}
	}
	if s.types["initialize"] != "InitializeRequest" || s.types["fs/read_text_file"] != "ReadTextFileRequest" {
		t.Fatalf("METHODS.txt was not understood: %v", s.types)
	}
	return s
}

// validate checks v against a location of the schema ("#/$defs/X", "#/anyOf/1").
func (s *acpSchema) validate(loc string, v any) error {
	sch := s.cache[loc]
	if sch == nil {
		var err error
		sch, err = s.c.Compile("acp.json" + loc)
		if err != nil {
			return fmt.Errorf("compiling %s: %w", loc, err)
		}
		s.cache[loc] = sch
	}
	return sch.Validate(v)
}

// traceLine is one parsed line of a trace.
type traceLine struct {
	when  time.Time
	agent string
	sent  bool
	msg   string
}

func parseTraceLine(l string) (traceLine, error) {
	f := strings.SplitN(l, " ", 4)
	if len(f) != 4 || (f[2] != "->" && f[2] != "<-") {
		return traceLine{}, fmt.Errorf("not TIMESTAMP AGENT ARROW MESSAGE: %.100q", l)
	}
	when, err := time.Parse(time.RFC3339Nano, f[0])
	if err != nil || !strings.Contains(f[0], ".") {
		return traceLine{}, fmt.Errorf("timestamp %q is not RFC 3339 with sub-seconds", f[0])
	}
	return traceLine{when: when, agent: f[1], sent: f[2] == "->", msg: f[3]}, nil
}

// TestTraceOfAFullSessionIsValid traces a full demo session, with test agents' turns
// that make Sidekicks answer with errors, and validates every line: its form, and every
// message Sidekicks sent against the official schema.
func TestTraceOfAFullSessionIsValid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.log")
	tr := acp.OpenTrace(path)
	if tr == nil {
		t.Fatal("OpenTrace failed")
	}
	d := startDemo(t, acp.Options{Trace: tr})
	d.rec.setPerm(allow)
	for _, msg := range []string{"Explain this, in go", "/read notes.txt", "/read ../outside/target.txt",
		"/write new.txt hi", "/write AGENTS.md x", "/help"} {
		d.turn(t, msg)
	}
	d.rec.setPerm(nil)
	d.turn(t, "/write refused.txt x")
	done := make(chan error, 1)
	go func() {
		_, err := d.session.Prompt(testContext(t), text("/slow"))
		done <- err
	}()
	d.rec.waitUntil(t, "the first words of /slow", func() bool { return strings.Contains(d.rec.textOf(acp.AgentMessageChunk), "word1") })
	d.session.Cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// A second connection, on the same trace, loads the session.
	id := d.session.ID()
	d.conn.Close()
	c2, _ := startAgent(t, "demo", acp.Options{Trace: tr}, "ACP_TEST_STATE="+d.state)
	if _, err := c2.LoadSession(testContext(t), id, d.ws, newRecorder()); err != nil {
		t.Fatal(err)
	}
	// Test agents: unknown methods, an over-long request, a permission cancelled.
	_, s, _ := session(t, "basic", acp.Options{Trace: tr, MaxLine: 1 << 20})
	prompt(t, s, "unknownmethod")
	prompt(t, s, fmt.Sprintf("bigrequest %d", 2<<20))
	prompt(t, s, "perm")
	ops, _ := json.Marshal([]fsOp{{Op: "read", Path: "/nowhere"}})
	prompt(t, s, "fs "+string(ops))
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}

	schema := loadSchema(t)
	requests := map[string]string{} // the agent's request ids → methods
	// The validation itself can fail.
	for _, bad := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"one"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/w"}}`,
		`{"jsonrpc":"2.0","id":"7","result":{"outcome":{"outcome":"selected"}}}`,
	} {
		var m map[string]json.RawMessage
		json.Unmarshal([]byte(bad), &m)
		var method string
		json.Unmarshal(m["method"], &method)
		if checkSent(schema, bad, m, method, string(m["id"]), map[string]string{`"7"`: "session/request_permission"}) == nil {
			t.Errorf("%s passed the validation", bad)
		}
	}
	var sent, received, skipped int
	var last time.Time
	for i, l := range readLines(t, path) {
		tl, err := parseTraceLine(l)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if tl.agent != "tester" {
			t.Errorf("line %d: agent %q", i+1, tl.agent)
		}
		if tl.when.Before(last) {
			t.Errorf("line %d: time goes back", i+1)
		}
		last = tl.when
		if !tl.sent && strings.HasPrefix(tl.msg, "!skipped ") {
			skipped++
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tl.msg), &m); err != nil {
			t.Fatalf("line %d: not a JSON object: %v", i+1, err)
		}
		var id, method string
		json.Unmarshal(m["method"], &method)
		if raw, ok := m["id"]; ok {
			id = string(raw)
		}
		if !tl.sent {
			received++
			if method != "" && id != "" {
				requests[id] = method
			}
			continue
		}
		sent++
		if err := checkSent(schema, tl.msg, m, method, id, requests); err != nil {
			t.Errorf("line %d: %v\n%.300s", i+1, err, tl.msg)
		}
	}
	t.Logf("%d messages sent, %d received, %d skipped", sent, received, skipped)
	if sent < 20 || received < 100 || skipped != 1 {
		t.Errorf("the trace has %d sent, %d received, %d skipped messages: not a full session", sent, received, skipped)
	}
}

// checkSent validates one message Sidekicks sent: as a client message, and its params
// or result as the type its method calls for.
func checkSent(s *acpSchema, line string, m map[string]json.RawMessage, method, id string, requests map[string]string) error {
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
	if err != nil {
		return err
	}
	if err := s.validate("#/anyOf/1", inst); err != nil {
		return fmt.Errorf("not a valid client message: %v", err)
	}
	part := func(key string) (any, error) {
		return jsonschema.UnmarshalJSON(bytes.NewReader(m[key]))
	}
	switch {
	case method != "":
		if !s.clientSide[method] {
			return fmt.Errorf("%s is not a method the client calls", method)
		}
		params, err := part("params")
		if err != nil {
			return err
		}
		return s.validate("#/$defs/"+s.types[method], params)
	case m["error"] != nil:
		if requests[id] == "" {
			return fmt.Errorf("an error answer to %s, which the agent never asked", id)
		}
		e, err := part("error")
		if err != nil {
			return err
		}
		return s.validate("#/$defs/Error", e)
	default:
		reqMethod := requests[id]
		if reqMethod == "" {
			return fmt.Errorf("an answer to %s, which the agent never asked", id)
		}
		result, err := part("result")
		if err != nil {
			return err
		}
		return s.validate("#/$defs/"+strings.TrimSuffix(s.types[reqMethod], "Request")+"Response", result)
	}
}

func TestTraceFromEnv(t *testing.T) {
	t.Setenv(acp.TraceEnv, "")
	if acp.TraceFromEnv() != nil {
		t.Error("a trace without SIDEKICKS_ACP_TRACE")
	}
	path := filepath.Join(t.TempDir(), "t.log")
	t.Setenv(acp.TraceEnv, path)
	tr := acp.TraceFromEnv()
	if tr == nil {
		t.Fatal("no trace with SIDEKICKS_ACP_TRACE set")
	}
	tr.Close()
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
	// A file that cannot be opened: no trace, and nothing else.
	t.Setenv(acp.TraceEnv, filepath.Join(t.TempDir(), "missing", "dir", "t.log"))
	if acp.TraceFromEnv() != nil {
		t.Error("a trace on an impossible path")
	}
	var nilTrace *acp.Trace
	nilTrace.Flush()
	if err := nilTrace.Close(); err != nil {
		t.Error(err)
	}
}

func TestTraceWriteErrorDisablesIt(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	tr := acp.OpenTrace("/dev/full")
	if tr == nil {
		t.Fatal("OpenTrace(/dev/full) failed")
	}
	_, s, rec := session(t, "basic", acp.Options{Trace: tr})
	for range 3 {
		prompt(t, s, "chunkflood 5000")
	}
	if got := rec.bytesOf(acp.AgentMessageChunk); got != 3*5000*int64(len("word ")) {
		t.Errorf("received %d bytes, want every chunk despite the failing trace", got)
	}
	tr.Close()
}
