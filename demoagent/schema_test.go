package demoagent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaPath is the official ACP schema, copied into the repository (testdata/acp-schema,
// see its README.md).
var schemaPath = filepath.Join("..", "testdata", "acp-schema", "schema.json")

// acpSchema validates what the agent writes: the message as a whole against the schema's
// "Agent" side, and its params or result against the $defs type its method names (the
// schema's x-side and x-method annotations say which).
type acpSchema struct {
	envelope *jsonschema.Schema
	compiler *jsonschema.Compiler
	defs     map[string]map[string]any

	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
	valid    map[string]bool // shapes already validated, see shapeKey
}

var (
	schemaOnce sync.Once
	schemaVal  *acpSchema
	schemaErr  error
)

func loadSchema(t *testing.T) *acpSchema {
	t.Helper()
	schemaOnce.Do(func() { schemaVal, schemaErr = compileSchema() })
	if schemaErr != nil {
		t.Fatalf("loading the ACP schema: %v", schemaErr)
	}
	return schemaVal
}

func compileSchema() (*acpSchema, error) {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", schemaPath, err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decoding %s: %w", schemaPath, err)
	}
	var raw struct {
		Defs map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", schemaPath, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("acp.json", doc); err != nil {
		return nil, fmt.Errorf("adding the schema: %w", err)
	}
	env, err := c.Compile("acp.json#/anyOf/0")
	if err != nil {
		return nil, fmt.Errorf("compiling the Agent message schema: %w", err)
	}
	return &acpSchema{envelope: env, compiler: c, defs: raw.Defs, compiled: map[string]*jsonschema.Schema{}, valid: map[string]bool{}}, nil
}

// defFor names the $defs type of side's method whose name ends with suffix.
func (s *acpSchema) defFor(side, method, suffix string) (string, error) {
	for name, def := range s.defs {
		if def["x-side"] == side && def["x-method"] == method && strings.HasSuffix(name, suffix) {
			return name, nil
		}
	}
	return "", fmt.Errorf("the schema has no %s for %s on the %s side", suffix, method, side)
}

func (s *acpSchema) def(name string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.compiled[name]; ok {
		return sch, nil
	}
	sch, err := s.compiler.Compile("acp.json#/$defs/" + name)
	if err != nil {
		return nil, fmt.Errorf("compiling %s: %w", name, err)
	}
	s.compiled[name] = sch
	return sch, nil
}

// shapeKey is the message with the value of every "text" member blanked: the schema only
// asks those to be strings, so two messages with the same key are valid or invalid
// together. It saves validating each of thousands of word chunks (validation is slow).
func shapeKey(v any) string {
	var blank func(v any) any
	blank = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				if _, isString := e.(string); isString && k == "text" {
					out[k] = ""
				} else {
					out[k] = blank(e)
				}
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = blank(e)
			}
			return out
		}
		return v
	}
	b, _ := json.Marshal(blank(v))
	return string(b)
}

// validate checks one line the agent wrote; answered maps request ids the client sent
// to their methods.
func (s *acpSchema) validate(line string, answered map[string]string) error {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	key := shapeKey(v)
	if m, ok := v.(map[string]any); ok {
		if id, ok := m["id"]; ok && m["method"] == nil {
			key += fmt.Sprint(" answers ", answered[fmt.Sprint(id)]) // a result's type depends on the request
		}
	}
	s.mu.Lock()
	known := s.valid[key]
	s.mu.Unlock()
	if known {
		return nil
	}
	if err := s.validateOnce(v, line, answered); err != nil {
		return err
	}
	s.mu.Lock()
	s.valid[key] = true
	s.mu.Unlock()
	return nil
}

func (s *acpSchema) validateOnce(v any, line string, answered map[string]string) error {
	var err error
	if err := s.envelope.Validate(v); err != nil {
		return fmt.Errorf("not a valid agent message: %w", err)
	}
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		return err
	}
	var defName string
	var part json.RawMessage
	switch {
	case m.Method != "" && len(m.ID) > 0:
		defName, err = s.defFor("client", m.Method, "Request")
		part = m.Params
	case m.Method != "":
		defName, err = s.defFor("client", m.Method, "Notification")
		part = m.Params
	case len(m.Error) > 0:
		defName, part = "Error", m.Error
	default:
		method, ok := answered[string(m.ID)]
		if !ok {
			return fmt.Errorf("a response to id %s, which the client never sent", m.ID)
		}
		defName, err = s.defFor("agent", method, "Response")
		part = m.Result
	}
	if err != nil {
		return err
	}
	sch, err := s.def(defName)
	if err != nil {
		return err
	}
	pv, err := jsonschema.UnmarshalJSON(bytes.NewReader(part))
	if err != nil {
		return fmt.Errorf("decoding the %s: %w", defName, err)
	}
	if err := sch.Validate(pv); err != nil {
		return fmt.Errorf("not a valid %s: %w", defName, err)
	}
	return nil
}

// validateAll checks every line the agent wrote to this client.
func (c *testClient) validateAll() {
	s := loadSchema(c.t)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, line := range c.lines {
		if err := s.validate(line, c.methods); err != nil {
			c.t.Errorf("%v\nline: %.500s", err, line)
		}
	}
}

// The validator must be able to fail, or the tests that rely on it prove nothing.
func TestSchemaValidatorRejectsInvalidMessages(t *testing.T) {
	s := loadSchema(t)
	answered := map[string]string{"1": "session/prompt", "2": "initialize"}
	bad := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"tired"}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"agentCapabilities":{},"authMethods":null,"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan","entries":[{"content":"x"}]}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"usage_update","used":-1,"size":10}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s"}}`,
		`{"id":1,"result":{"stopReason":"end_turn"}}`,
	}
	for _, line := range bad {
		if err := s.validate(line, answered); err == nil {
			t.Errorf("accepted an invalid message: %s", line)
		}
	}
	good := `{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`
	if err := s.validate(good, answered); err != nil {
		t.Errorf("refused a valid message: %v", err)
	}
}

// TestSchemaTour runs every kind of message the agent can write through the schema: one
// session that uses every command, a load and errors. (Every other test validates its own
// messages too, when it ends.)
func TestSchemaTour(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startAgent(t, Options{})
	h := &fsHandlers{t: t, root: root}
	h.install(c)
	var asked []sdk.RequestPermissionRequest
	permissionAnswer(c, "allow", &asked)
	c.initialize()
	sid, _ := c.newSession(root)
	for _, p := range []string{"hello in json", "/help", "/echo x", "/read a.txt", "/read missing.txt", "/write a.txt beta", "/write b.txt new", "/heard", "/flood 50", "/fail"} {
		c.prompt(sid, sdk.TextBlock(p))
	}
	c.loadSession(sid, root)
	c.loadSession("demo-none", root)
	c.until(c.request("no/such/method", nil))
	c.close()

	kinds := map[string]bool{}
	c.mu.Lock()
	for _, line := range c.lines {
		var m struct {
			Method string `json:"method"`
			Params struct {
				Update struct {
					Kind string `json:"sessionUpdate"`
				} `json:"update"`
			} `json:"params"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		switch {
		case m.Params.Update.Kind != "":
			kinds[m.Params.Update.Kind] = true
		case m.Method != "":
			kinds[m.Method] = true
		case m.Error != nil:
			kinds["error"] = true
		}
	}
	c.mu.Unlock()
	for _, want := range []string{"user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update",
		"plan", "available_commands_update", "usage_update", "fs/read_text_file", "fs/write_text_file", "session/request_permission", "error"} {
		if !kinds[want] {
			t.Errorf("the tour produced no %s", want)
		}
	}
	c.validateAll()
}
