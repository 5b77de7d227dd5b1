package agentstack

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// The tests of this file run channels through chat's Service over the real pieces: demo
// agents in their own processes (this test binary run again), the ACP client, and a real
// SQLite history.

func TestChannelRoutesByMention(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 2, "0")
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "alice", "bob")

	// One mention: that agent only.
	r.send(k, "@alice say hi")
	if res := r.next(k); res.Agent != "alice" || res.StopReason != chat.StopEndTurn {
		t.Fatalf("turn %+v, want alice's", res)
	}
	if n := r.prompts(); n != 1 {
		t.Errorf("%d prompts after one mention", n)
	}
	if reply := r.lastReply(k, "alice"); !strings.Contains(reply, "I am Alice") {
		t.Errorf("alice's reply %q", reply)
	}

	// Two mentions: both, each in its own entry.
	r.send(k, "@alice @bob hello both")
	ends := r.ends(k, 2)
	for _, a := range []string{"alice", "bob"} {
		if ends[a].StopReason != chat.StopEndTurn {
			t.Errorf("%s: %+v", a, ends[a])
		}
	}
	if n := r.prompts(); n != 3 {
		t.Errorf("%d prompts after two mentions, want 3", n)
	}
	if reply := r.lastReply(k, "bob"); !strings.Contains(reply, "I am Bob") {
		t.Errorf("bob's reply %q", reply)
	}

	// No mention with two members: a note, and the hint names them.
	before := len(r.entries(k))
	r.send(k, "just a note for later")
	if r.svc.Busy(k) {
		t.Error("a note started a turn")
	}
	es := r.entries(k)
	if len(es) != before+1 || es[len(es)-1] != "user : just a note for later" {
		t.Errorf("entries after the note: %q", es[before:])
	}
	r.mu.Lock()
	notes := slices.Clone(r.notes)
	r.mu.Unlock()
	if len(notes) != 1 || notes[0].Hint != chat.HintAddress || !strings.Contains(notes[0].HintText(i18n.English), "@alice @bob") {
		t.Errorf("notes %+v", notes)
	}

	// A command without a name in a channel of two: refused, nothing kept.
	err := r.svc.Send(k, "/echo hi")
	hint, ok := chat.RouteHint(err, i18n.French)
	if !ok || !strings.Contains(hint, "/nom:commande") {
		t.Errorf("error %v, hint %q", err, hint)
	}
	err = r.svc.Send(k, "/nobody:echo hi")
	if hint, ok := chat.RouteHint(err, i18n.English); !ok || !strings.Contains(hint, "nobody") {
		t.Errorf("unknown agent: error %v, hint %q", err, hint)
	}
	if got := r.entries(k); len(got) != before+1 {
		t.Errorf("a refused message was kept: %q", got[before:])
	}
	if n := r.prompts(); n != 3 {
		t.Errorf("%d prompts, want still 3", n)
	}
	if _, ok := chat.RouteHint(errors.New("other"), i18n.English); ok {
		t.Error("another error read as a routing hint")
	}
}

func TestChannelWithOneMemberOrNone(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 2, "0")
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)

	solo := r.channel("solo", "bob")
	r.send(solo, "no mention needed")
	if res := r.next(solo); res.Agent != "bob" || res.StopReason != chat.StopEndTurn {
		t.Fatalf("turn %+v, want bob's", res)
	}
	// A command without a name goes to the only member.
	r.send(solo, "/echo straight")
	if res := r.next(solo); res.Agent != "bob" {
		t.Fatalf("turn %+v", res)
	}
	if reply := r.lastReply(solo, "bob"); reply != "straight" {
		t.Errorf("bob's reply %q", reply)
	}

	empty := r.channel("empty")
	r.send(empty, "anyone?")
	r.mu.Lock()
	notes := slices.Clone(r.notes)
	r.mu.Unlock()
	if len(notes) != 1 || notes[0].Hint != chat.HintNoMembers {
		t.Errorf("notes %+v", notes)
	}
	if es := r.entries(empty); !slices.Equal(es, []string{"user : anyone?"}) {
		t.Errorf("entries %q", es)
	}
}

func TestChannelMentionAddsTheAgent(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 2, "0")
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "alice")

	r.send(k, "@Bob can you echo?")
	if res := r.next(k); res.Agent != "bob" || res.StopReason != chat.StopEndTurn {
		t.Fatalf("turn %+v", res)
	}
	members, err := st.Members(store.ChannelID(k.Channel))
	if err != nil || !slices.Equal(members, []string{"alice", "bob"}) {
		t.Errorf("members %q, %v", members, err)
	}
	r.mu.Lock()
	joined := slices.Clone(r.joined)
	r.mu.Unlock()
	if !slices.Equal(joined, []store.ChannelID{store.ChannelID(k.Channel)}) {
		t.Errorf("members hook called for %v", joined)
	}
	es := r.entries(k)
	if len(es) < 3 || es[0] != "notice : Bob joined the channel" || es[1] != "user : @Bob can you echo?" || !strings.HasPrefix(es[2], "agent bob: ") {
		t.Errorf("entries %q, want the notice before the message", es)
	}

	// A command names an agent that is not a member: it joins too.
	k2 := r.channel("ops")
	r.send(k2, "/alice:echo hi")
	if res := r.next(k2); res.Agent != "alice" {
		t.Fatalf("turn %+v", res)
	}
	if reply := r.lastReply(k2, "alice"); reply != "hi" {
		t.Errorf("/alice:echo hi replied %q", reply)
	}
	if members, _ := st.Members(store.ChannelID(k2.Channel)); !slices.Equal(members, []string{"alice"}) {
		t.Errorf("members of ops %q", members)
	}
	if es := r.entries(k2); len(es) != 3 || es[0] != "notice : Alice joined the channel" || es[1] != "user : /alice:echo hi" {
		t.Errorf("entries of ops %q", es)
	}
}

// heardBlocks returns the blocks /heard reported, each as its text.
func heardBlocks(reply string) []string {
	var blocks []string
	for _, part := range strings.Split(reply, "--- block ")[1:] {
		_, body, _ := strings.Cut(part, "---\n")
		body = strings.TrimRight(strings.TrimRight(body, "\n"), "`")
		blocks = append(blocks, strings.TrimRight(body, "\n"))
	}
	return blocks
}

func TestChannelCatchUpCarriesTheOthersAnswers(t *testing.T) {
	r, k, bobSaid := missedByAlice(t)
	st := r.st

	r.send(k, "@alice heard")
	if res := r.next(k); res.Agent != "alice" || res.StopReason != chat.StopEndTurn {
		t.Fatalf("turn %+v", res)
	}
	blocks := r.heard(k, "alice")
	if len(blocks) != 2 {
		t.Fatalf("alice heard %d blocks, want the catch-up and the message: %q", len(blocks), blocks)
	}
	catchUp := blocks[0]
	for _, want := range []string{
		"You are @alice.",
		"The user said:\n> @bob what do you say?\n",
		"@bob said:\n> " + strings.SplitN(bobSaid, "\n", 2)[0],
		"The user said:\n> a note to everyone\n",
		"End of the catch-up.",
	} {
		if !strings.Contains(catchUp, want) {
			t.Errorf("the catch-up lacks %q:\n%s", want, catchUp)
		}
	}
	if strings.Contains(catchUp, "@alice heard") {
		t.Errorf("the message itself is in the catch-up:\n%s", catchUp)
	}
	if blocks[1] != "@alice heard" {
		t.Errorf("the message block is %q", blocks[1])
	}
	// What alice saw is recorded: up to the message she was sent.
	conv, _ := st.ChannelConversation(store.ChannelID(k.Channel))
	seen, _ := st.Seen(conv, "alice")
	page, _ := st.LastPage(conv, 10)
	var msgID int64
	for _, e := range page {
		if e.Kind == chat.KindUser && e.Text == "@alice heard" {
			msgID = e.ID
		}
	}
	if msgID == 0 || seen != msgID {
		t.Errorf("alice's seen mark %d, want the id of her message %d", seen, msgID)
	}

	// Nothing new since: the next prompt is the message alone.
	r.send(k, "@alice heard")
	r.next(k)
	if blocks := r.heard(k, "alice"); len(blocks) != 1 || blocks[0] != "@alice heard" {
		t.Errorf("second message: %q, want the message alone", blocks)
	}
}

func TestChannelCatchUpIsBounded(t *testing.T) {
	dir := testagents.Env(t)
	cfg := blocksAndDemo(t, dir)
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, chat.MinCatchUpBytes)
	k := r.channel("général", "alice", "bob")

	long := func(tag string) string { return tag + " " + strings.Repeat(tag+"-word ", 60) }
	r.send(k, "/bob:echo "+long("first"))
	r.next(k)
	r.send(k, "/bob:echo "+long("second"))
	r.next(k)
	r.send(k, "@alice heard")
	r.next(k)
	blocks := r.heard(k, "alice")
	if len(blocks) != 2 {
		t.Fatalf("blocks %q", blocks)
	}
	catchUp := blocks[0]
	if len(catchUp) > chat.MinCatchUpBytes {
		t.Errorf("the catch-up is %d bytes, over its bound %d", len(catchUp), chat.MinCatchUpBytes)
	}
	if !strings.Contains(catchUp, "earlier messages were left out") || !strings.Contains(catchUp, "second-word") || strings.Contains(catchUp, "first-word") {
		t.Errorf("the catch-up should keep the newest and say the older were left out:\n%s", catchUp)
	}
}

func TestChannelSeenMarksSurviveARestart(t *testing.T) {
	dir := testagents.Env(t)
	cfg := blocksAndDemo(t, dir)
	st, w := history(t, dir)
	first := newChanRig(t, cfg, st, w, 0)
	k := first.channel("général", "alice", "bob")
	first.send(k, "/bob:echo before the restart")
	first.next(k)
	first.send(k, "@alice heard")
	first.next(k)
	if blocks := first.heard(k, "alice"); len(blocks) != 2 || !strings.Contains(blocks[0], "before the restart") {
		t.Fatalf("first catch-up %q", blocks)
	}
	first.send(k, "/bob:echo unseen by alice")
	first.next(k)
	first.close()

	second := newChanRig(t, cfg, st, w, 0)
	second.send(k, "@alice heard")
	second.next(k)
	blocks := second.heard(k, "alice")
	if len(blocks) != 2 {
		t.Fatalf("blocks after the restart %q", blocks)
	}
	if !strings.Contains(blocks[0], "> unseen by alice") || strings.Contains(blocks[0], "before the restart") {
		t.Errorf("after the restart alice should hear only what she had not seen:\n%s", blocks[0])
	}
}

func TestChannelSessionsAreKeptApart(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 2, "0")
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	one, two := r.channel("one", "alice"), r.channel("two", "alice")
	own := chat.AgentKey("alice")
	for _, k := range []chat.Key{one, two, own} {
		r.send(k, "/echo hi")
		if res := r.next(k); res.StopReason != chat.StopEndTurn {
			t.Fatalf("%v: %+v", k, res)
		}
	}
	ids := map[string]bool{}
	for _, ch := range []chat.Key{one, two} {
		conv, _ := st.ChannelConversation(store.ChannelID(ch.Channel))
		id, _ := st.Session(conv, "alice")
		ids[id] = true
	}
	conv, _ := st.AgentConversation("alice")
	id, _ := st.Session(conv, "alice")
	ids[id] = true
	if len(ids) != 3 || ids[""] {
		t.Errorf("session ids %v, want three different ones", ids)
	}
	if n := len(r.traced(`"method":"session/new"`)); n != 3 {
		t.Errorf("%d session/new, want 3", n)
	}
	// One process serves them all.
	if n := len(r.traced(`"method":"initialize"`)); n != 1 {
		t.Errorf("%d initialize, want 1", n)
	}
	// The agent's own window hears no catch-up.
	r.send(own, "/heard")
	r.next(own)
	if blocks := heardBlocks(r.lastReply(own, "alice")); len(blocks) != 1 {
		t.Errorf("the agent window's prompt has %d blocks: %q", len(blocks), blocks)
	}
}

func TestChannelRenameKeepsDeleteDropsTheHistory(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 2, "0")
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "alice")
	r.send(k, "/echo kept")
	r.next(k)
	r.svc.Close(k)
	id := store.ChannelID(k.Channel)
	if err := st.RenameChannel(id, "renamed"); err != nil {
		t.Fatal(err)
	}
	// Close hands the last entries to the Writer without waiting for it to write them, and
	// reopening reads the store: Open waits for the Close to finish, then the Writer is
	// flushed before the conversation is opened again.
	if _, err := r.svc.Open(k); err != nil {
		t.Fatal(err)
	}
	r.svc.Close(k)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if es := r.entries(k); len(es) != 2 || es[1] != "agent alice: kept" {
		t.Errorf("after the rename: %q", es)
	}
	r.svc.Close(k)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteChannel(id); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ChannelConversation(id); !errors.Is(err, store.ErrNoChannel) {
		t.Errorf("the deleted channel's conversation: %v", err)
	}
	if err := r.svc.Send(k, "@alice anyone?"); err == nil {
		t.Error("a message was sent to a deleted channel")
	}
	if n, _ := st.Search("kept", 10); len(n) != 0 {
		t.Errorf("the deleted channel's entries are still found: %+v", n)
	}
}

// An agent that joins a channel with a long history hears its end, within the bound, and
// is then up to date.
func TestChannelCatchUpOfALongHistory(t *testing.T) {
	dir := testagents.Env(t)
	cfg := blocksAndDemo(t, dir)
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "bob")
	conv, err := st.ChannelConversation(store.ChannelID(k.Channel))
	if err != nil {
		t.Fatal(err)
	}
	n := 1500 // some 45 KiB of notes: more than the catch-up holds
	for i := 1; i <= n; i++ {
		w.Save(conv, chat.Entry{Kind: chat.KindUser, Turn: int64(i), Text: fmt.Sprintf("note %d.", i), Done: true})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r.send(k, "@alice heard")
	r.next(k)
	blocks := r.heard(k, "alice")
	if len(blocks) != 2 {
		t.Fatalf("blocks %q", blocks)
	}
	if !strings.Contains(blocks[0], fmt.Sprintf("> note %d.\n", n)) || strings.Contains(blocks[0], "> note 1.\n") ||
		!strings.Contains(blocks[0], "earlier messages were left out") {
		t.Errorf("the catch-up of a long history should keep its end:\n%.600s…", blocks[0])
	}
	seen, _ := st.Seen(conv, "alice")
	last, _ := st.LastPage(conv, 3)
	var msg int64
	for _, e := range last {
		if e.Text == "@alice heard" {
			msg = e.ID
		}
	}
	if msg == 0 || seen != msg {
		t.Errorf("alice's seen mark %d, want her message %d", seen, msg)
	}
}

// TestChannelMentionOfAnAgentIsNeverAFile: in a channel, @bob names the agent bob even when
// the workspace has a file called bob, so no prompt carries that file.
func TestChannelMentionOfAnAgentIsNeverAFile(t *testing.T) {
	dir := testagents.Env(t)
	cfg := twoDemoAgents(t, dir, 2, "0")
	if err := os.WriteFile(filepath.Join(dir, "bob"), []byte("a file named like an agent"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte("a real file"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, w := history(t, dir)
	r := newChanRig(t, cfg, st, w, 0)
	k := r.channel("général", "alice", "bob")

	r.send(k, "@alice @bob read @notes.md")
	for range 2 {
		if res := r.next(k); res.StopReason != chat.StopEndTurn {
			t.Fatalf("turn %+v", res)
		}
	}
	prompts := r.traced(`"method":"session/prompt"`)
	if len(prompts) != 2 {
		t.Fatalf("%d prompts sent, want 2", len(prompts))
	}
	for _, p := range prompts {
		if strings.Contains(p, "a file named like an agent") || strings.Contains(p, `/bob"`) {
			t.Errorf("the file bob went into a prompt: %s", p)
		}
		if !strings.Contains(p, "a real file") && !strings.Contains(p, `notes.md"`) {
			t.Errorf("the file notes.md is missing from a prompt: %s", p)
		}
	}
}
