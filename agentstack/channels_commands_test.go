package agentstack

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// blocksAndDemo writes a configuration with alice, the blocks agent (she replies with the
// blocks of each prompt she gets), and bob, a demo agent, both working in dir.
func blocksAndDemo(t *testing.T, dir string) *config.Config {
	t.Helper()
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	return loadConfig(t, testagents.WriteConfig(t, dir, 2,
		testagents.ModeEntry(t, "alice", testagents.BlocksMode, dir),
		demoDelayEntry(t, "bob", dir, state, "0")))
}

// blocks returns the blocks of the last prompt the blocks agent reported in k.
func (r *chanRig) blocks(k chat.Key, agent string) []testagents.PromptBlock {
	r.t.Helper()
	reply := r.lastReply(k, agent)
	blocks, ok := testagents.ParseBlocks(reply)
	if !ok {
		r.t.Fatalf("%s's reply holds no blocks: %q", agent, reply)
	}
	return blocks
}

// heard returns the text of each block of the last prompt the blocks agent reported in k.
func (r *chanRig) heard(k chat.Key, agent string) []string {
	r.t.Helper()
	var out []string
	for _, b := range r.blocks(k, agent) {
		out = append(out, b.Text)
	}
	return out
}

// seenMark returns how far agent has seen the channel of k.
func (r *chanRig) seenMark(k chat.Key, agent string) int64 {
	r.t.Helper()
	conv, err := r.st.ChannelConversation(store.ChannelID(k.Channel))
	if err != nil {
		r.t.Fatal(err)
	}
	seen, err := r.st.Seen(conv, agent)
	if err != nil {
		r.t.Fatal(err)
	}
	return seen
}

// missedByAlice makes a channel where alice, the blocks agent, has missed bob's answer to
// the user (which it returns) and a note.
func missedByAlice(t *testing.T) (*chanRig, chat.Key, string) {
	t.Helper()
	dir := testagents.Env(t)
	cfg := blocksAndDemo(t, dir)
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "alice", "bob")
	r.send(k, "@bob what do you say?")
	r.next(k)
	bobSaid := r.lastReply(k, "bob")
	r.send(k, "a note to everyone")
	return r, k, bobSaid
}

// A command in a channel opens the agent's prompt: no catch-up before it, which waits for
// the agent's next prompt that is not a command.
func TestChannelCommandOpensThePrompt(t *testing.T) {
	r, k, bobSaid := missedByAlice(t)
	bobSaid = strings.SplitN(bobSaid, "\n", 2)[0]

	r.send(k, "/alice:web query")
	if res := r.next(k); res.Agent != "alice" || res.StopReason != chat.StopEndTurn {
		t.Fatalf("turn %+v", res)
	}
	if got := r.blocks(k, "alice"); !slices.Equal(got, []testagents.PromptBlock{{Type: "text", Text: "/web query"}}) {
		t.Errorf("alice's prompt for /alice:web query is %+v, want the one block \"/web query\"", got)
	}
	if seen := r.seenMark(k, "alice"); seen != 0 {
		t.Errorf("a command moved alice's seen mark to %d", seen)
	}

	// Her next message carries the catch-up: what she missed, not her own command.
	r.send(k, "@alice what did I miss?")
	r.next(k)
	heard := r.heard(k, "alice")
	if len(heard) != 2 || heard[1] != "@alice what did I miss?" {
		t.Fatalf("alice heard %q, want the catch-up then the message", heard)
	}
	for _, want := range []string{"The user said:\n> @bob what do you say?\n", "@bob said:\n> " + bobSaid, "The user said:\n> a note to everyone\n"} {
		if !strings.Contains(heard[0], want) {
			t.Errorf("the catch-up lacks %q:\n%s", want, heard[0])
		}
	}
	if strings.Contains(heard[0], "/alice:web") || strings.Contains(heard[0], "/web query") {
		t.Errorf("the catch-up repeats alice's own command:\n%s", heard[0])
	}
	if seen := r.seenMark(k, "alice"); seen == 0 {
		t.Error("alice's seen mark did not move after a message")
	}

	// A command of a one-member channel, without a name, opens the prompt too.
	solo := r.channel("solo", "alice")
	r.send(solo, "/web again")
	r.next(solo)
	if got := r.heard(solo, "alice"); !slices.Equal(got, []string{"/web again"}) {
		t.Errorf("alice's prompt for /web again is %q", got)
	}
}

// The files a /command line mentions are attached after its text, in a channel and in the
// agent's own window.
func TestCommandAttachesMentionedFiles(t *testing.T) {
	dir := testagents.Env(t)
	cfg := blocksAndDemo(t, dir)
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("the notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	file := testagents.PromptBlock{Type: "resource", Text: "the notes\n", URI: "file://" + notes}

	for _, c := range []struct {
		k    chat.Key
		text string
		want string
	}{
		{r.channel("général", "alice", "bob"), "/alice:review @notes.txt please", "/review @notes.txt please"},
		{chat.AgentKey("alice"), "/review @notes.txt twice @notes.txt", "/review @notes.txt twice @notes.txt"},
	} {
		r.send(c.k, c.text)
		r.next(c.k)
		want := []testagents.PromptBlock{{Type: "text", Text: c.want}, file}
		if got := r.blocks(c.k, "alice"); !slices.Equal(got, want) {
			t.Errorf("%q in %v: alice got %+v, want %+v", c.text, c.k, got, want)
		}
	}
}
