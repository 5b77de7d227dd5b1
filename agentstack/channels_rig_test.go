package agentstack

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// chanRig is the service with its channels, over a supervisor of real agent processes
// and a real history, as New wires them.
type chanRig struct {
	*rig
	st      *store.Store
	w       *store.Writer
	routing *chat.Channels

	mu     sync.Mutex
	notes  []chat.Routing
	joined []store.ChannelID
}

// history is a history database for channel tests, closed at the end of the test (after
// the rigs made later, whose cleanups run first).
func history(t *testing.T, dir string) (*store.Store, *store.Writer) {
	t.Helper()
	st, err := store.Open(filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	w := store.NewWriter(st)
	t.Cleanup(func() {
		w.Close()
		st.Close()
	})
	return st, w
}

// newChanRig makes the service; catchUp bounds the catch-up (0: the default).
func newChanRig(t *testing.T, cfg *config.Config, st *store.Store, w *store.Writer, catchUp int) *chanRig {
	t.Helper()
	r := &rig{t: t, conns: NewConns(), results: make(chan keyedResult, 16), trace: filepath.Join(t.TempDir(), "trace.log")}
	r.tr = acp.OpenTrace(r.trace)
	r.sup = NewSupervisor(cfg, Options{
		Trace:     r.tr,
		Conns:     r.conns,
		Logs:      runtime.NewLogs(runtime.LogsOptions{}),
		StopGrace: runtime.StopGrace{AfterStdin: time.Second, AfterTerm: time.Second, Drain: time.Second},
	})
	cr := &chanRig{rig: r, st: st, w: w}
	cr.routing = chat.NewChannels(storeChannels{st}, i18n.English)
	cr.routing.LimitCatchUp(catchUp)
	cr.routing.SetAgents(agentRefs(cfg.Agents))
	cr.routing.SetHooks(chat.ChannelHooks{
		Members: func(id int64) {
			cr.mu.Lock()
			cr.joined = append(cr.joined, store.ChannelID(id))
			cr.mu.Unlock()
		},
		Note: func(k chat.Key, rt chat.Routing) {
			cr.mu.Lock()
			cr.notes = append(cr.notes, rt)
			cr.mu.Unlock()
		},
	})
	r.svc = chat.NewService(cr.routing.Options(chat.ServiceOptions{
		Agents:    Pool{Sup: r.sup},
		History:   newStoreHistory(st, w),
		Lang:      i18n.English,
		Describe:  func(err error) string { return DescribeError(err, i18n.English) },
		TurnEnded: func(k chat.Key, res chat.TurnResult) { r.results <- keyedResult{k, res} },
	}))
	cr.routing.Attach(r.svc)
	t.Cleanup(func() {
		r.close()
		r.tr.Close()
	})
	return cr
}

// channel creates a channel with these members and returns its key.
func (r *chanRig) channel(name string, members ...string) chat.Key {
	r.t.Helper()
	ch, err := r.st.CreateChannel(name, "")
	if err != nil {
		r.t.Fatal(err)
	}
	for _, m := range members {
		if err := r.st.AddMember(ch.ID, m); err != nil {
			r.t.Fatal(err)
		}
	}
	return chat.ChannelKey(int64(ch.ID))
}

// send sends text in k, failing the test on an error.
func (r *chanRig) send(k chat.Key, text string) {
	r.t.Helper()
	if err := r.svc.Send(k, text); err != nil {
		r.t.Fatalf("sending %q: %v", text, err)
	}
}

// ends waits for the end of n turns of k and returns them by agent.
func (r *chanRig) ends(k chat.Key, n int) map[string]chat.TurnResult {
	r.t.Helper()
	out := make(map[string]chat.TurnResult)
	for range n {
		res := r.next(k)
		out[res.Agent] = res
	}
	return out
}

// entries returns the conversation of k as "kind author: text" lines.
func (r *chanRig) entries(k chat.Key) []string {
	r.t.Helper()
	conv, err := r.svc.Open(k)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, e := range conv.Snapshot() {
		if e.Kind == chat.KindUser || e.Kind == chat.KindAgent || e.Kind == chat.KindNotice {
			out = append(out, fmt.Sprintf("%s %s: %s", e.Kind, e.Author, e.Text))
		}
	}
	return out
}

// lastReply returns the last reply of agent in k.
func (r *chanRig) lastReply(k chat.Key, agent string) string {
	r.t.Helper()
	conv, _ := r.svc.Open(k)
	es := conv.Snapshot()
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Kind == chat.KindAgent && es[i].Author == agent {
			return es[i].Text
		}
	}
	r.t.Fatalf("%s never replied in %v: %q", agent, k, r.entries(k))
	return ""
}

// prompts returns how many prompts were sent so far.
func (r *chanRig) prompts() int { return len(r.traced(`"method":"session/prompt"`)) }

// demoDelayEntry is demoEntry with the demo agent's pause between words.
func demoDelayEntry(t testing.TB, name, ws, state, delay string) string {
	t.Helper()
	args, _ := json.Marshal([]string{"--name", strings.ToUpper(name[:1]) + name[1:], "--delay", delay})
	return fmt.Sprintf(`  - name: %s
    title: %s
    command: %q
    args: ["-test.run=^$"]
    env:
      SIDEKICKS_TEST_DEMO_AGENT: "1"
      SIDEKICKS_TEST_DEMO_ARGS: %q
      SIDEKICKS_DEMO_STATE: %q
    workspace: %q
`, name, strings.ToUpper(name[:1])+name[1:], testagents.Binary(t), string(args), state, ws)
}

// twoDemoAgents writes a configuration with the demo agents alice and bob, pausing delay
// between words, at most maxRunning of them running.
func twoDemoAgents(t *testing.T, dir string, maxRunning int, delay string) *config.Config {
	t.Helper()
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	return loadConfig(t, testagents.WriteConfig(t, dir, maxRunning,
		demoDelayEntry(t, "alice", dir, state, delay),
		demoDelayEntry(t, "bob", dir, state, delay)))
}
