package chat_test

import (
	"errors"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestTurnLifecycle(t *testing.T) {
	c, clock, _ := newConv(t, i18n.English)
	if c.Busy("alice") {
		t.Fatal("busy before any turn")
	}
	t1 := c.BeginTurn("alice", "first")
	st := c.State("alice")
	if t1 != 1 || !st.Busy || st.Cancelling || st.Turn != 1 || !st.Started.Equal(clock.Now()) {
		t.Errorf("after BeginTurn: turn %d, state %+v", t1, st)
	}
	c.Cancelling("alice")
	if st := c.State("alice"); !st.Cancelling || !st.Busy {
		t.Errorf("after Cancelling: %+v", st)
	}
	c.EndTurn("alice", chat.StopCancelled, nil)
	if c.Busy("alice") || c.State("alice").Cancelling {
		t.Errorf("after EndTurn: %+v", c.State("alice"))
	}
	if e := last(t, c); e.Kind != chat.KindNotice || e.Text != "alice: turn cancelled" || e.Author != "alice" || e.Turn != 1 || !e.Done {
		t.Errorf("notice = %+v", e)
	}
	if t2 := c.BeginTurn("alice", "second"); t2 != 2 {
		t.Errorf("second turn numbered %d", t2)
	}
	// Cancelling when idle changes nothing.
	c.EndTurn("alice", chat.StopEndTurn, nil)
	rev := c.Rev()
	c.Cancelling("alice")
	if c.Rev() != rev || c.State("alice").Cancelling {
		t.Error("Cancelling an idle agent changed the conversation")
	}
}

func TestTurnEndNotices(t *testing.T) {
	tests := []struct {
		lang, reason string
		err          error
		want         string // "" for no notice
	}{
		{"en", chat.StopEndTurn, nil, ""},
		{"en", "", nil, ""},
		{"en", chat.StopCancelled, nil, "alice: turn cancelled"},
		{"fr", chat.StopCancelled, nil, "alice : tour annulé"},
		{"en", chat.StopMaxTokens, nil, "alice stopped: it reached its token limit"},
		{"fr", chat.StopMaxTokens, nil, "alice s'est arrêté : limite de jetons atteinte"},
		{"en", chat.StopMaxTurnRequests, nil, "alice stopped: it reached its limit of requests in one turn"},
		{"en", chat.StopRefusal, nil, "alice refused to continue"},
		{"fr", chat.StopRefusal, nil, "alice a refusé de continuer"},
		{"en", "\x1b[31mweird\nreason", nil, "alice ended its turn: weird reason"},
		{"en", chat.StopEndTurn, errors.New("prompting \"alice\": agent said \x1b]0;pwned\x07boom"), "alice: error: prompting \"alice\": agent said boom"},
		{"fr", "", errors.New("agent exited"), "alice : erreur : agent exited"},
		{"de", chat.StopCancelled, nil, "alice: turn cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.reason, func(t *testing.T) {
			c, _, _ := newConv(t, i18n.Parse(tt.lang))
			c.BeginTurn("alice", "q")
			c.EndTurn("alice", tt.reason, tt.err)
			e := last(t, c)
			if tt.want == "" {
				if e.Kind == chat.KindNotice {
					t.Errorf("unexpected notice %q", e.Text)
				}
				return
			}
			if e.Kind != chat.KindNotice || e.Text != tt.want {
				t.Errorf("last = %s %q, want notice %q", e.Kind, e.Text, tt.want)
			}
		})
	}
}

// In a channel the user's message is added once; the agents it goes to share its turn.
func TestChannelTurns(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	alice, bob := c.Handler("alice", nil), c.Handler("bob", nil)
	turn := c.AddUser("@alice @bob hello")
	if ta, tb := c.BeginAgentTurn("alice"), c.BeginAgentTurn("bob"); ta != turn || tb != turn {
		t.Errorf("turns %d and %d, want %d", ta, tb, turn)
	}
	alice.Chunk(chat.ChunkAgentMessage, "Hi from")
	bob.Chunk(chat.ChunkAgentMessage, "Bob")
	alice.Chunk(chat.ChunkAgentMessage, " Alice")
	bob.Chunk(chat.ChunkAgentMessage, " here")
	c.EndTurn("bob", chat.StopEndTurn, nil)
	if !c.Busy("alice") || c.Busy("bob") {
		t.Error("one agent's end ended the other's turn")
	}
	es := c.Snapshot()
	if len(es) != 3 || es[1].Author != "alice" || es[1].Text != "Hi from Alice" || es[2].Author != "bob" || es[2].Text != "Bob here" {
		t.Fatalf("entries = %+v", es)
	}
	if es[1].Done || !es[2].Done {
		t.Errorf("done: alice %v (still streaming), bob %v (ended)", es[1].Done, es[2].Done)
	}
	if es[1].Turn != turn || es[2].Turn != turn {
		t.Errorf("turns %d, %d", es[1].Turn, es[2].Turn)
	}
	// An agent begun without a user message in between shares the last turn number too.
	if again := c.BeginAgentTurn("bob"); again != turn {
		t.Errorf("bob's next turn %d", again)
	}
}

func TestAddUserSanitizesPastedText(t *testing.T) {
	c, _, _ := newConv(t, i18n.English)
	c.AddUser("look:\r\n\x1b[2Jcleared?\u202e")
	if e := last(t, c); e.Text != "look:\ncleared?" || e.Kind != chat.KindUser || e.Author != "" {
		t.Errorf("user entry = %+v", e)
	}
}

func TestSessionRestartedNotice(t *testing.T) {
	c, _, _ := newConv(t, i18n.French)
	c.SessionRestarted("alice")
	if e := last(t, c); e.Kind != chat.KindNotice || e.Text != "alice : une nouvelle session commence ici (la précédente n'a pas pu être reprise)" {
		t.Errorf("notice = %+v", e)
	}
}

func TestEntriesAreStamped(t *testing.T) {
	c, clock, _ := newConv(t, i18n.English)
	h := c.Handler("alice", nil)
	start := clock.Now()
	c.BeginTurn("alice", "q")
	h.Chunk(chat.ChunkAgentMessage, "a")
	clock.Advance(3 * time.Second)
	h.Chunk(chat.ChunkAgentMessage, "b")
	e := last(t, c)
	if !e.Created.Equal(start) || !e.Updated.Equal(start.Add(3*time.Second)) {
		t.Errorf("created %v updated %v", e.Created, e.Updated)
	}
}
