package agentstack

import (
	"fmt"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// The entries of a conversation with the demo agent leave memory once the Writer has
// written them, and LoadOlder reads them back from the database, the first one included.
func TestWrittenEntriesLeaveMemoryAndComeBack(t *testing.T) {
	cfg, st, w := demoWithHistory(t)
	k := chat.AgentKey("demo")
	r := newRig(t, cfg, rigOptions{history: newStoreHistory(st, w)})
	const turns = 30
	for i := range turns {
		if res := r.turn(k, fmt.Sprintf("/echo said %d", i)); res.StopReason != chat.StopEndTurn {
			t.Fatalf("turn %d: %+v", i, res)
		}
	}
	conv, _ := r.svc.Open(k)
	all := conv.Snapshot()
	conv.Flush()
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got := conv.Release(len(all)-4, all[0].Seq)
	if got != len(all)-4 || conv.Len() != 4 {
		t.Fatalf("released %d of %d entries, %d held", got, len(all), conv.Len())
	}
	for {
		n, err := r.svc.LoadOlder(k)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	back := conv.Snapshot()
	if len(back) != len(all) {
		t.Fatalf("%d entries back, want %d", len(back), len(all))
	}
	for i := range all {
		if back[i].Text != all[i].Text || back[i].Kind != all[i].Kind {
			t.Fatalf("entry %d back is %s %q, was %s %q", i, back[i].Kind, back[i].Text, all[i].Kind, all[i].Text)
		}
	}
	if back[0].Text != "/echo said 0" {
		t.Fatalf("the first entry back is %q", back[0].Text)
	}

}
