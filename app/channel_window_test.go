package app

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// notices returns the notices of the conversation of k, once it is open.
func (h *appHarness) notices(k chat.Key) []string {
	c := h.ap.agents
	conv, ok := c.Service().Conversation(k)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range conv.Snapshot() {
		if e.Kind == chat.KindNotice {
			out = append(out, e.Text)
		}
	}
	return out
}

// replies returns the replies of agent in the conversation of k, once it is open.
func (h *appHarness) replies(k chat.Key, agent string) []string {
	c := h.ap.agents
	conv, ok := c.Service().Conversation(k)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range conv.Snapshot() {
		if e.Kind == chat.KindAgent && e.Author == agent && e.Done {
			out = append(out, e.Text)
		}
	}
	return out
}

// channelsConfig is a configuration with the demo agents alice and bob, pausing delay
// between words, in #général, and bob alone in #ops.
func channelsConfig(t *testing.T, dir, delay string) string {
	t.Helper()
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+
		demoAgentYAMLDelay(t, "alice", "Alice", "A", "", delay)+
		demoAgentYAMLDelay(t, "bob", "Bob", "B", "", delay)+
		`channels:
  - name: général
    description: Both agents
    agents: [alice, bob]
  - name: ops
    agents: [bob]
`)
	return path
}

// The channel window on the simulation screen, with real demo agents: the empty channel,
// @ and / completion, both agents answering, a note, a refused command, Esc.
func TestAppChannelWindow(t *testing.T) {
	dir := appEnv(t)
	path := channelsConfig(t, dir, "0")
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	h.alt('1')
	// Empty: the description and the members with their states.
	h.waitText("Both agents", "A Alice  @alice — stopped", "B Bob  @bob — stopped")

	// @ lists the agents, members first; Tab completes.
	h.typeText("@")
	h.waitText("@alice", "@bob")
	h.typeText("b")
	// The list narrows once the key is handled: wait for alice to leave it, with bob kept.
	h.waitScreen("@b lists bob without alice", func(s string) bool {
		return strings.Contains(s, "@bob") && !strings.Contains(s, "@alice  A Alice")
	})
	h.press(tcell.KeyTab)
	h.typeText("@alice hello")
	h.waitText("@bob @alice hello")
	h.press(tcell.KeyEnter)
	gen := chat.ChannelKey(int64(h.ap.channels[0].ID))
	h.waitScreen("both replies", func(string) bool {
		return len(h.replies(gen, "alice")) == 1 && len(h.replies(gen, "bob")) == 1
	})
	if r := h.replies(gen, "alice")[0]; !strings.Contains(r, "I am Alice, a demo agent") || !strings.Contains(r, "> @bob @alice hello") {
		t.Errorf("alice's reply %q", r)
	}
	if r := h.replies(gen, "bob")[0]; !strings.Contains(r, "I am Bob, a demo agent") {
		t.Errorf("bob's reply %q", r)
	}
	h.waitText("A Alice: ready", "B Bob: ready")

	// / lists the members' commands as name:command.
	h.typeText("/ech")
	h.waitText("/alice:echo", "/bob:echo")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.press(tcell.KeyEscape)

	// No mention: a note, and the line above the input says how to address someone.
	h.typeText("a note for later")
	h.press(tcell.KeyEnter)
	h.waitText("Nobody was addressed, so this stays here as a note.")
	// A command that names no agent: refused, the text stays in the input.
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText("/echo hi")
	h.press(tcell.KeyEnter)
	h.waitText("In a channel, a command names its agent")
	h.waitText("/echo hi")

	// The Channels menu marks nothing: everything was seen.
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.alt('c')
	s := h.waitText("│ #général", "Add member…", "Remove member…")
	if strings.Contains(s, "#général ●") {
		t.Errorf("a channel in front is marked unread:\n%s", s)
	}
	h.press(tcell.KeyEscape)
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	// The conversation is in the history.
	st := openStore(t, path)
	ch, err := st.ChannelByName("général")
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := st.ChannelConversation(ch.ID)
	if n, _ := st.Count(conv); n < 4 {
		t.Errorf("the history holds %d entries of #général", n)
	}
}

// A channel not in front is marked when something new arrives, in the frame, the window
// list and the Channels menu; Esc cancels every turn of the channel.
func TestAppChannelUnreadAndCancel(t *testing.T) {
	dir := appEnv(t)
	path := channelsConfig(t, dir, "20ms")
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	h.alt('1')
	h.waitText("Both agents")
	h.typeText("@alice @bob tell me a story")
	h.press(tcell.KeyEnter)
	h.waitText("A Alice: busy", "B Bob: busy")
	h.alt('2')
	h.waitScreen("#général marked unread", func(string) bool {
		unread := false
		h.onUI(func() { unread = h.ap.find(winChannel, h.ap.channels[0].ID, "").win.Unread() })
		return unread
	})
	h.alt('c')
	h.waitText("#général ●")
	h.press(tcell.KeyEscape)
	h.alt('0')
	s := h.waitText("1  #général", "2  #ops")
	for _, row := range strings.Split(s, "\n") {
		if strings.Contains(row, "1  #général") && !strings.Contains(row, "●") && !strings.Contains(row, "!") {
			t.Errorf("the window list does not mark #général: %q", row)
		}
		if strings.Contains(row, "2  #ops") && (strings.Contains(row, "●") || strings.Contains(row, "!")) {
			t.Errorf("the window list marks #ops: %q", row)
		}
	}
	h.press(tcell.KeyEscape)

	// Back in #général: Esc cancels both turns.
	h.alt('1')
	h.press(tcell.KeyEscape)
	h.waitText("alice: turn cancelled", "bob: turn cancelled")
	h.alt('c')
	s = h.waitText("│ #général")
	if strings.Contains(s, "#général ●") {
		t.Errorf("the channel in front is still marked:\n%s", s)
	}
	h.press(tcell.KeyEscape)
}

// Channels ▸ Add member… and Remove member… change the focused channel's members, with a
// line in its conversation; a mention adds a member too.
func TestAppChannelMembersFromTheMenu(t *testing.T) {
	dir := appEnv(t)
	path := channelsConfig(t, dir, "0")
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	h.alt('2')
	h.waitText("B Bob  @bob — stopped")

	h.alt('c')
	h.waitText("Add member…")
	h.press(tcell.KeyEnd)
	h.press(tcell.KeyUp)
	h.press(tcell.KeyEnter)
	h.waitText("Add a member to #ops", "A Alice  @alice")
	h.press(tcell.KeyEnter)
	h.waitText("Alice joined the channel", "Alice added to #ops")

	h.alt('c')
	h.waitText("Remove member…")
	h.press(tcell.KeyEnd)
	h.press(tcell.KeyEnter)
	h.waitText("Remove a member from #ops")
	h.typeText("bob")
	h.press(tcell.KeyEnter)
	h.waitText("Bob left the channel", "Bob removed from #ops")

	// A mention of bob brings him back.
	h.typeText("@bob welcome back")
	h.press(tcell.KeyEnter)
	ops := chat.ChannelKey(int64(h.ap.channels[1].ID))
	h.waitScreen("bob's reply", func(string) bool { return len(h.replies(ops, "bob")) == 1 })
	if got, want := h.notices(ops), []string{"Alice joined the channel", "Bob left the channel", "Bob joined the channel"}; !slices.Equal(got, want) {
		t.Errorf("the notices of #ops %q, want %q", got, want)
	}
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	st := openStore(t, path)
	ch, err := st.ChannelByName("ops")
	if err != nil || !slices.Equal(ch.Members, []string{"alice", "bob"}) {
		t.Errorf("#ops: %+v, %v", ch, err)
	}
}

// A permission request in a channel names the agent that asks, in the window and on the
// status bar; n rejects it.
func TestAppChannelPermissionNamesTheAgent(t *testing.T) {
	dir := appEnv(t)
	path := channelsConfig(t, dir, "0")
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	h.alt('1')
	h.typeText("/alice:write notes.txt hello")
	h.press(tcell.KeyEnter)
	h.waitText("! A Alice asks permission", "A Alice asks permission — Alt-1")
	h.later(time.Second)
	h.typeText("n")
	h.waitText("permission was refused")
}

// Declared channels are matched without case at start and at each reload: one renamed in
// the application is not created again, and gets the members the file adds.
func TestAppDeclaredChannelsMatchWithoutCase(t *testing.T) {
	dir := appEnv(t)
	path := channelsConfig(t, dir, "0")
	h := startApp(t, path, dir)
	h.waitTitles("#général", "#ops")
	h.alt('1')
	h.alt('c')
	h.waitText("Rename channel")
	h.typeText("r")
	h.waitText("Channel name:")
	h.key(tcell.KeyCtrlU, 0, tcell.ModNone)
	h.typeText("GÉNÉRAL")
	h.press(tcell.KeyEnter)
	h.waitTitles("#GÉNÉRAL", "#ops")

	// The file now spells it another way, and adds a member to it.
	writeFile(t, path, "version: 1\nagents:\n"+
		demoAgentYAML(t, "alice", "Alice", "A", "")+
		demoAgentYAML(t, "bob", "Bob", "B", "")+
		demoAgentYAML(t, "carol", "Carol", "C", "")+
		`channels:
  - name: Général
    agents: [alice, bob, carol]
  - name: ops
    agents: [bob]
`)
	s := h.waitText("Configuration reloaded", "New agents: carol")
	if strings.Contains(s, "New channels") {
		t.Errorf("a declared channel was created again:\n%s", s)
	}
	h.waitText("C Carol  @carol — stopped")
	h.waitTitles("#GÉNÉRAL", "#ops")
	if r := h.quit(); r.code != 0 {
		t.Fatalf("quit: %+v", r)
	}
	st := openStore(t, path)
	chans, err := st.Channels()
	if err != nil || len(chans) != 2 || chans[0].Name != "GÉNÉRAL" || !slices.Equal(chans[0].Members, []string{"alice", "bob", "carol"}) {
		t.Errorf("channels %+v, %v", chans, err)
	}
}
