package agentstack

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// toolCall is what a tool call entry shows, to compare: its turn, title, status and text.
type toolCall struct {
	turn                int64
	title, status, text string
}

func toolCallsOf(es []chat.Entry) []toolCall {
	var out []toolCall
	for _, e := range es {
		if e.Kind != chat.KindToolCall || e.Tool == nil {
			continue
		}
		tc := toolCall{turn: e.Turn, title: e.Tool.Title, status: e.Tool.Status}
		for _, c := range e.Tool.Content {
			tc.text += c.Text
		}
		out = append(out, tc)
	}
	return out
}

// historyRig is a rig over cfg whose history is a real store in dir.
func historyRig(t *testing.T, cfg *config.Config, dir string) (*rig, *store.Store, func() *rig) {
	t.Helper()
	st, err := store.Open(filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w := store.NewWriter(st)
	t.Cleanup(func() { w.Close() })
	again := func() *rig { return newRig(t, cfg, rigOptions{history: newStoreHistory(st, w)}) }
	return again(), st, again
}

// checkToolCalls asserts the tool calls of the agent's conversation: in the service, in the
// store once it closed, and in a service opened again on that store.
func checkToolCalls(t *testing.T, r *rig, st *store.Store, again func() *rig, agent string, want []toolCall) {
	t.Helper()
	k := chat.AgentKey(agent)
	conv, _ := r.svc.Open(k)
	if got := toolCallsOf(conv.Snapshot()); !slices.Equal(got, want) {
		t.Errorf("tool calls in the conversation:\n%+v\nwant\n%+v", got, want)
	}
	r.close()
	convID, _ := st.AgentConversation(agent)
	stored, err := st.LastPage(convID, 100)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolCallsOf(stored); !slices.Equal(got, want) {
		t.Errorf("tool calls in the store:\n%+v\nwant\n%+v", got, want)
	}
	reopened, err := again().svc.Open(k)
	if err != nil {
		t.Fatal(err)
	}
	if got := toolCallsOf(reopened.Snapshot()); !slices.Equal(got, want) {
		t.Errorf("tool calls reopened from the store:\n%+v\nwant\n%+v", got, want)
	}
}

// The tester's case: the demo agent restarted between two turns, whose session is reloaded;
// the first turn's tool call stays as it was, the second turn has its own.
func TestAToolCallOfAnEarlierTurnSurvivesTheAgentsRestart(t *testing.T) {
	dir := testagents.Env(t)
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.txt": "first file AAA\n", "b.txt": "second file BBB\n"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "wiz", ws, filepath.Join(dir, "state"), "")))
	r, st, again := historyRig(t, cfg, dir)
	k := chat.AgentKey("wiz")
	if res := r.turn(k, "/read a.txt"); res.StopReason != chat.StopEndTurn {
		t.Fatalf("first turn: %+v", res)
	}
	if err := r.sup.Stop("wiz"); err != nil {
		t.Fatal(err)
	}
	if res := r.turn(k, "/read b.txt"); res.StopReason != chat.StopEndTurn {
		t.Fatalf("turn after the restart: %+v", res)
	}
	if n := len(r.traced(`"method":"session/load"`)); n != 1 {
		t.Errorf("%d session/load, want 1", n)
	}
	checkToolCalls(t, r, st, again, "wiz", []toolCall{
		{1, "Read a.txt", "completed", "first file AAA\n"},
		{2, "Read b.txt", "completed", "second file BBB\n"},
	})
}

// An agent that gives all its tool calls one id, in a session and in the new session of its
// restarted process: each turn keeps its own tool call.
func TestToolCallIDsReusedByAnAgent(t *testing.T) {
	dir := testagents.Env(t)
	cfg := loadConfig(t, testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "same", "sameid", dir)))
	r, st, again := historyRig(t, cfg, dir)
	k := chat.AgentKey("same")
	r.turn(k, "one")
	r.turn(k, "two")
	if err := r.sup.Stop("same"); err != nil {
		t.Fatal(err)
	}
	r.turn(k, "three")
	if n := len(r.traced(`"method":"session/new"`)); n != 2 {
		t.Errorf("%d session/new, want 2", n)
	}
	checkToolCalls(t, r, st, again, "same", []toolCall{
		{1, "Tool one", "completed", "one"},
		{2, "Tool two", "completed", "two"},
		{3, "Tool three", "completed", "three"},
	})
}
