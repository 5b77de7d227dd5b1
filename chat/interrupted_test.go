package chat_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// turnSink records entries and turn marks in the order the conversation hands them over.
// Saves of one entry that follow each other are kept as the last, as the store keeps an
// entry: whether the saver took a streaming entry before it ended depends on timing.
type turnSink struct {
	mu      sync.Mutex
	log     []string
	lastSeq int64 // the entry the last line is the save of; 0 after a turn mark
}

func (s *turnSink) Save(e chat.Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	line := fmt.Sprintf("entry %s %q done=%v", e.Kind, e.Text, e.Done)
	if s.lastSeq != 0 && s.lastSeq == e.Seq {
		s.log[len(s.log)-1] = line
		return
	}
	s.log = append(s.log, line)
	s.lastSeq = e.Seq
}

func (s *turnSink) SaveTurn(m chat.TurnMark) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, fmt.Sprintf("turn %s %d open=%v started=%v", m.Agent, m.Turn, m.Open, !m.Started.IsZero()))
	s.lastSeq = 0
}

func (s *turnSink) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// A turn is marked open before its first entry reaches the sink and closed after its last,
// whether it ends normally or on an error; every save of the reply, streaming or last,
// comes between the two.
func TestTurnMarksFrameTheEntries(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	sink := &turnSink{}
	c.SetSink(sink)
	h := c.Handler("alice", nil)
	c.BeginTurn("alice", "hello")
	h.Chunk(chat.ChunkAgentMessage, "hi there")
	c.EndTurn("alice", chat.StopEndTurn, nil)
	c.BeginTurn("alice", "again")
	c.EndTurn("alice", "", fmt.Errorf("the agent went away"))
	c.Flush()
	want := []string{
		`entry user "hello" done=true`,
		`turn alice 1 open=true started=true`,
		`entry agent "hi there" done=true`, // its last save (a streaming one may come first)
		`turn alice 1 open=false started=false`,
		`entry user "again" done=true`,
		`turn alice 2 open=true started=true`,
		`entry notice "alice: error: the agent went away" done=true`,
		`turn alice 2 open=false started=false`,
	}
	if got := sink.all(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the sink got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Turns the history says were left open get a notice in the user's language, unless an
// entry of theirs already says it was cut, and are closed so that they are told once.
func TestInterruptedTurnsAreTold(t *testing.T) {
	for _, tc := range []struct {
		lang i18n.Lang
		want string
	}{
		{i18n.English, "bob: turn interrupted: Sidekicks stopped before it ended"},
		{i18n.French, "bob : tour interrompu : Sidekicks s'est arrêté avant sa fin"},
	} {
		c, _, _ := newConv(t, tc.lang)
		c.Load([]chat.Entry{
			{ID: 1, Kind: chat.KindUser, Turn: 3, Text: "both of you?", Done: true},
			{ID: 2, Kind: chat.KindAgent, Author: "alice", Turn: 3, Text: "half a"}, // saved mid-stream
		})
		sink := &turnSink{}
		c.SetSink(sink)
		c.Interrupted([]chat.TurnMark{
			{Agent: "bob", Turn: 3, Open: true},
			{Agent: "alice", Turn: 3, Open: true},
		})
		c.Flush()
		es := c.Snapshot()
		var notices []string
		for _, e := range es {
			if e.Kind == chat.KindNotice {
				notices = append(notices, e.Text)
				if e.Author != "bob" || e.Turn != 3 {
					t.Errorf("%v: notice %+v, want bob's, of turn 3", tc.lang, e)
				}
			}
		}
		if len(notices) != 1 || notices[0] != tc.want {
			t.Errorf("%v: notices %q, want only %q (alice's cut reply says it itself)", tc.lang, notices, tc.want)
		}
		want := []string{
			`turn alice 3 open=false started=false`,
			fmt.Sprintf(`entry notice %q done=true`, tc.want),
			`turn bob 3 open=false started=false`,
		}
		if got := sink.all(); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%v: the sink got:\n%s\nwant:\n%s", tc.lang, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
