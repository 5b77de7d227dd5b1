package acp_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// modeSession starts one of testagents' misbehaving agents, initializes and opens a
// session; it returns the connection and the session/new error.
func modeSession(t *testing.T, mode string) (*acp.Session, error) {
	t.Helper()
	c := connect(t, startCommand(t, exec.Command(os.Args[0]), "SIDEKICKS_TEST_AGENT="+mode), acp.Options{})
	if _, err := c.Initialize(testContext(t)); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c.NewSession(testContext(t), "/work", newRecorder())
}

// The data of a JSON-RPC error the agent answers a prompt with is kept, and said: what
// the agent put in it is the cause ("Internal error" is not).
func TestAnErrorsDataIsSaid(t *testing.T) {
	s, err := modeSession(t, "rpcerror")
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	_, err = s.Prompt(testContext(t), text("hi"))
	var rpc *acp.RPCError
	if !errors.As(err, &rpc) || rpc.Code != -32603 || rpc.Message != "Internal error" {
		t.Fatalf("err = %v, want the agent's -32603", err)
	}
	want := []string{"details: " + testagents.RPCErrorDetails, "hint: retry later"}
	if d := acp.Details(err); !slices.Equal(d, want) {
		t.Errorf("details = %q, want %q", d, want)
	}
	if msg := err.Error(); !strings.HasSuffix(msg, "(error -32603): details: "+testagents.RPCErrorDetails+"; hint: retry later") || hasControl(msg) {
		t.Errorf("err = %q, want the data after the message, cleaned", msg)
	}
	if fr := acp.Describe(err, i18n.French); fr != "l'agent a refusé session/prompt : Internal error (erreur -32603)" {
		t.Errorf("French description %q", fr)
	}
}

// An agent that refuses a session because it needs a login says why in its message: the
// message is kept with the login refusal.
func TestALoginRefusalKeepsTheAgentsMessage(t *testing.T) {
	_, err := modeSession(t, "nokey")
	var auth *acp.AuthRequiredError
	if !errors.As(err, &auth) {
		t.Fatalf("err = %v, want an *AuthRequiredError", err)
	}
	if d := acp.Details(err); !slices.Equal(d, []string{testagents.NoKeyMessage}) {
		t.Errorf("details = %q, want the agent's message", d)
	}
	if msg := err.Error(); !strings.HasSuffix(msg, "set the key it reads with Agent ▸ Secrets…: "+testagents.NoKeyMessage) {
		t.Errorf("err = %q, want the agent's message", msg)
	}
}

// Details keeps a few lines of what the agent said, each one line of clean text, cut.
func TestDetailsAreBounded(t *testing.T) {
	long := strings.Repeat("x", 500)
	for _, c := range []struct {
		name, data string
		want       []string
	}{
		{"none", ``, nil},
		{"null", `null`, nil},
		{"not JSON", `{oops`, nil},
		{"a string", `"upstream failed\nretry later"`, []string{"upstream failed", "retry later"}},
		{"the message again", `"boom"`, nil},
		{"a number", `529`, []string{"529"}},
		{"nested", `{"b": {"code": 529}, "a": [1, "two"], "z": null}`, []string{`a: [1,"two"]`, `b: {"code":529}`}},
		{"escapes", `"\u001b]52;c;SGVsbG8=\u0007copied \u001b[31mred\u001b[0m\u202e"`, []string{"copied red"}},
		{"many lines", `"1\n2\n\n3\n4\n5\n6"`, []string{"1", "2", "3", "4 …"}},
		{"a long line", `"` + long + `"`, []string{strings.Repeat("x", 160) + "…"}},
		{"a million lines", `"a\nb\nc\nd\n` + strings.Repeat(`x\n`, 1_000_000) + `"`, []string{"a", "b", "c", "d …"}},
		{"many keys", `{` + manyKeys(100_000) + `}`, []string{"k000000: 0", "k000001: 1", "k000002: 2", "k000003: 3 …"}},
	} {
		err := error(&acp.RPCError{Method: "session/prompt", Code: -32603, Message: "boom", Data: []byte(c.data)})
		if c.data == "" {
			err.(*acp.RPCError).Data = nil
		}
		got := acp.Details(err)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: details %q, want %q", c.name, got, c.want)
		}
		for _, l := range got {
			if hasControl(l) {
				t.Errorf("%s: %q holds a control character", c.name, l)
			}
		}
	}
	if d := acp.Details(errors.New("plain")); d != nil {
		t.Errorf("a plain error has details %q", d)
	}
}

// manyKeys is n members of a JSON object, "k000000": 0 and on.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%06d": %d`, i, i)
	}
	return b.String()
}
