package agentstack

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

func TestMain(m *testing.M) { testagents.Main(m) }

func loadConfig(t testing.TB, path string) *config.Config {
	t.Helper()
	cfg, diags := config.Load(path)
	if cfg == nil {
		t.Fatalf("loading %s: %v", path, diags)
	}
	return cfg
}

// rig is the service over a supervisor, as the application wires them.
type rig struct {
	t       *testing.T
	conns   *Conns
	sup     *runtime.Supervisor
	svc     *chat.Service
	results chan keyedResult
	trace   string
	tr      *acp.Trace
	closed  bool
}

type keyedResult struct {
	key chat.Key
	res chat.TurnResult
}

type rigOptions struct {
	history chat.History
	perms   chat.Permissions
	lang    i18n.Lang
	// initTimeout is Options.InitTimeout (its default when 0).
	initTimeout time.Duration
	own         runtime.OwnFiles
}

func newRig(t *testing.T, cfg *config.Config, o rigOptions) *rig {
	t.Helper()
	r := &rig{t: t, conns: NewConns(), results: make(chan keyedResult, 16), trace: filepath.Join(t.TempDir(), "trace.log")}
	tr := acp.OpenTrace(r.trace)
	r.tr = tr
	r.sup = NewSupervisor(cfg, Options{
		Trace:       tr,
		InitTimeout: o.initTimeout,
		Conns:       r.conns,
		Logs:        runtime.NewLogs(runtime.LogsOptions{}),
		StopGrace:   runtime.StopGrace{AfterStdin: time.Second, AfterTerm: time.Second, Drain: time.Second},
		OwnFiles:    o.own,
	})
	lang := o.lang
	r.svc = chat.NewService(chat.ServiceOptions{
		Agents:      Pool{Sup: r.sup},
		History:     o.history,
		Permissions: func(chat.Key) chat.Permissions { return o.perms },
		Lang:        lang,
		Describe:    func(err error) string { return DescribeError(err, lang) },
		TurnEnded:   func(k chat.Key, res chat.TurnResult) { r.results <- keyedResult{k, res} },
	})
	t.Cleanup(func() {
		r.close()
		tr.Close()
	})
	return r
}

// close shuts the service and the supervisor down, as quitting does.
func (r *rig) close() {
	if r.closed {
		return
	}
	r.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := r.svc.Shutdown(ctx); err != nil {
		r.t.Errorf("service shutdown: %v", err)
	}
	if err := r.sup.Shutdown(ctx); err != nil {
		r.t.Errorf("supervisor shutdown: %v", err)
	}
}

// turn sends text in k and returns how the turn ended.
func (r *rig) turn(k chat.Key, text string) chat.TurnResult {
	r.t.Helper()
	if err := r.svc.Send(k, text); err != nil {
		r.t.Fatalf("sending %q: %v", text, err)
	}
	return r.next(k)
}

// next waits for the end of a turn in k.
func (r *rig) next(k chat.Key) chat.TurnResult {
	r.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case kr := <-r.results:
			if kr.key == k {
				return kr.res
			}
			r.t.Errorf("a turn of %v ended while waiting for %v: %+v", kr.key, k, kr.res)
		case <-deadline:
			r.t.Fatalf("no turn of %v ended within 30s", k)
		}
	}
}

// traced returns the trace's lines that contain s.
func (r *rig) traced(s string) []string {
	r.tr.Flush()
	data, _ := os.ReadFile(r.trace)
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return out
}

func kinds(es []chat.Entry) []chat.EntryKind {
	var out []chat.EntryKind
	for _, e := range es {
		out = append(out, e.Kind)
	}
	return out
}
