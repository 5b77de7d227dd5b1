package agentstack

import (
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// An agent that answers initialize with another protocol version, and one that never
// answers, exit by themselves once Sidekicks gives up on them (their stdin closes): the
// turn's error and the agent's state say why Sidekicks gave up, not how they exited.
func TestServiceSaysWhyAnAgentCouldNotStart(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2,
		testagents.ModeEntry(t, "v2", "version2", dir), testagents.ModeEntry(t, "silent", "mute", dir)))
	r := newRig(t, cfg, rigOptions{initTimeout: 400 * time.Millisecond})
	for _, c := range []struct{ agent, en, fr string }{
		{"v2", `agent "v2" speaks ACP protocol version 2; Sidekicks speaks version 1`, `l'agent "v2" parle la version 2 du protocole ACP ; Sidekicks parle la version 1`},
		{"silent", `the agent "silent" did not answer initialize within 400ms`, `l'agent "silent" n'a pas répondu à initialize en 400ms`},
	} {
		res := r.turn(chat.AgentKey(c.agent), "hi")
		if res.Err == nil {
			t.Fatalf("%s: result %+v, want an error", c.agent, res)
		}
		if msg := DescribeError(res.Err, i18n.English); msg != c.en {
			t.Errorf("%s: message %q, want %q", c.agent, msg, c.en)
		}
		if msg := DescribeError(res.Err, i18n.French); msg != c.fr {
			t.Errorf("%s: French message %q, want %q", c.agent, msg, c.fr)
		}
		st := r.sup.State(c.agent)
		if st.State != runtime.Error || st.Failure == nil || DescribeError(st.Failure, i18n.English) != c.en {
			t.Errorf("%s: state %s, failure %v, want error with %q", c.agent, st.State, st.Failure, c.en)
		}
		if strings.Contains(st.Reason, "ended by itself") {
			t.Errorf("%s: reason %q blames the exit", c.agent, st.Reason)
		}
	}
}

// A JSON-RPC error's data, and the message of a login refusal, reach the conversation
// under the error's description, cleaned; the stack's hint follows.
func TestServiceShowsWhatTheAgentSaidOfItsError(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2,
		testagents.ModeEntry(t, "up", "rpcerror", dir), testagents.ModeEntry(t, "key", "nokey", dir)))
	r := newRig(t, cfg, rigOptions{})
	for _, c := range []struct{ agent, want, logged string }{
		{"up", "the agent refused session/prompt: Internal error (error -32603)\n    details: " + testagents.RPCErrorDetails + "\n    hint: retry later",
			"acp: session/prompt failed: prompting agent \"up\": the agent refused session/prompt: Internal error (error -32603): details: " + testagents.RPCErrorDetails + "; hint: retry later"},
		{"key", `agent "key" needs you to sign in (methods: Use Gemini API key): Agent ▸ Sign in…, or set the key it reads with Agent ▸ Secrets…` + "\n    " + testagents.NoKeyMessage,
			`acp: session/new failed: agent "key" needs you to sign in (methods: Use Gemini API key): Agent ▸ Sign in…, or set the key it reads with Agent ▸ Secrets…: ` + testagents.NoKeyMessage},
	} {
		k := chat.AgentKey(c.agent)
		res := r.turn(k, "hi")
		if msg := DescribeError(res.Err, i18n.English); msg != c.want {
			t.Errorf("%s: message %q, want %q", c.agent, msg, c.want)
		}
		conv, _ := r.svc.Open(k)
		if last := conv.Snapshot()[conv.Len()-1]; last.Kind != chat.KindNotice || !strings.HasSuffix(last.Text, c.want) {
			t.Errorf("%s: last entry %q, want it to end with %q", c.agent, last.Text, c.want)
		}
		// The agent's log, where the user is sent, has the whole error on one line.
		logged := false
		for _, l := range r.sup.Logs().Agent(c.agent).Lines() {
			logged = logged || l.Text == c.logged
		}
		if !logged {
			t.Errorf("%s: the log lacks the error: %v", c.agent, r.sup.Logs().Agent(c.agent).Lines())
		}
	}
}
