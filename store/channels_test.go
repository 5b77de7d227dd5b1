package store

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestCleanChannelName(t *testing.T) {
	tests := []struct {
		name, want string
		ok         bool
	}{
		{"général", "général", true},
		{"  Équipe de nuit  ", "Équipe de nuit", true},
		{"x", "x", true},
		{strings.Repeat("é", 64), strings.Repeat("é", 64), true},
		{strings.Repeat("é", 65), "", false},
		{"", "", false},
		{"   ", "", false},
		{"bad\nname", "", false},
		{"esc\x1b[31m", "", false},
		{"bad\xffutf8", "", false},
	}
	for _, tt := range tests {
		got, err := CleanChannelName(tt.name)
		if tt.ok && (err != nil || got != tt.want) {
			t.Errorf("CleanChannelName(%q) = %q, %v; want %q", tt.name, got, err, tt.want)
		}
		if !tt.ok && !errors.Is(err, ErrBadName) {
			t.Errorf("CleanChannelName(%q) = %q, %v; want ErrBadName", tt.name, got, err)
		}
	}
}

func TestChannelsCaseInsensitive(t *testing.T) {
	s := newTestStore(t)
	gen, err := s.CreateChannel("Général", "everyone")
	if err != nil {
		t.Fatal(err)
	}
	if gen.Name != "Général" || gen.Description != "everyone" || gen.ID == 0 || gen.Created.IsZero() {
		t.Errorf("created %+v", gen)
	}
	for _, dup := range []string{"général", "GÉNÉRAL", " général "} {
		if _, err := s.CreateChannel(dup, ""); !errors.Is(err, ErrNameTaken) {
			t.Errorf("CreateChannel(%q) = %v, want ErrNameTaken", dup, err)
		}
	}
	// Accents are not folded: "general" is another name.
	if _, err := s.CreateChannel("general", ""); err != nil {
		t.Errorf("CreateChannel(general) = %v", err)
	}
	eq, err := s.CreateChannel("ÉQUIPE", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, look := range []string{"équipe", "Équipe", "ÉQUIPE", " équipe"} {
		got, err := s.ChannelByName(look)
		if err != nil || got.ID != eq.ID || got.Name != "ÉQUIPE" {
			t.Errorf("ChannelByName(%q) = %+v, %v", look, got, err)
		}
	}
	if _, err := s.ChannelByName("nowhere"); !errors.Is(err, ErrNoChannel) {
		t.Errorf("ChannelByName(nowhere) = %v", err)
	}
	if _, err := s.CreateChannel(strings.Repeat("x", 65), ""); !errors.Is(err, ErrBadName) {
		t.Errorf("65 characters: %v", err)
	}
	chans, err := s.Channels()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range chans {
		names = append(names, c.Name)
	}
	if !equalStrings(names, []string{"Général", "general", "ÉQUIPE"}) {
		t.Errorf("Channels = %q, want creation order", names)
	}
}

func TestRenameChannel(t *testing.T) {
	s := newTestStore(t)
	a, _ := s.CreateChannel("alpha", "")
	b, _ := s.CreateChannel("beta", "")
	conv, err := s.ChannelConversation(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, conv, textEntry(chat.KindUser, "", "hello", 1))
	if err := s.RenameChannel(a.ID, "BETA"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("rename to another channel's name: %v", err)
	}
	if err := s.RenameChannel(a.ID, ""); !errors.Is(err, ErrBadName) {
		t.Errorf("rename to empty: %v", err)
	}
	if err := s.RenameChannel(a.ID, "Alpha"); err != nil {
		t.Errorf("changing only the case: %v", err)
	}
	if err := s.RenameChannel(a.ID, "Été"); err != nil {
		t.Fatal(err)
	}
	if err := s.RenameChannel(999, "nobody"); !errors.Is(err, ErrNoChannel) {
		t.Errorf("rename a missing channel: %v", err)
	}
	got, err := s.ChannelByName("été")
	if err != nil || got.ID != a.ID || got.Name != "Été" {
		t.Fatalf("after rename: %+v, %v", got, err)
	}
	// The old name is free again, the history stays with the channel.
	if _, err := s.CreateChannel("alpha", ""); err != nil {
		t.Errorf("old name not freed: %v", err)
	}
	if c2, err := s.ChannelConversation(a.ID); err != nil || c2 != conv {
		t.Errorf("conversation after rename = %d, %v; want %d", c2, err, conv)
	}
	if n, _ := s.Count(conv); n != 1 {
		t.Errorf("entries after rename = %d", n)
	}
	if err := s.SetDescription(b.ID, "the second"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Channel(b.ID); got.Description != "the second" {
		t.Errorf("description = %q", got.Description)
	}
	if err := s.SetDescription(999, "x"); !errors.Is(err, ErrNoChannel) {
		t.Errorf("SetDescription on a missing channel: %v", err)
	}
}

func TestDeleteChannel(t *testing.T) {
	s := newTestStore(t)
	gone, _ := s.CreateChannel("gone", "")
	kept, _ := s.CreateChannel("kept", "")
	s.AddMember(gone.ID, "alice")
	goneConv, _ := s.ChannelConversation(gone.ID)
	keptConv, _ := s.ChannelConversation(kept.ID)
	for i := range 5 {
		mustSave(t, s, goneConv, textEntry(chat.KindUser, "", "walrus in the gone channel", i))
	}
	mustSave(t, s, keptConv, textEntry(chat.KindUser, "", "walrus in the kept channel", 9))
	if err := s.SetSession(goneConv, "alice", "s-1"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteChannel(gone.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteChannel(gone.ID); !errors.Is(err, ErrNoChannel) {
		t.Errorf("deleting twice: %v", err)
	}
	if _, err := s.Channel(gone.ID); !errors.Is(err, ErrNoChannel) {
		t.Errorf("Channel after delete: %v", err)
	}
	for table, q := range map[string]string{
		"entries":       `SELECT count(*) FROM entries WHERE conv_id = ?`,
		"sessions":      `SELECT count(*) FROM sessions WHERE conv_id = ?`,
		"conversations": `SELECT count(*) FROM conversations WHERE id = ?`,
	} {
		var n int
		if err := s.db.QueryRow(q, goneConv).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s left after delete: %d, %v", table, n, err)
		}
	}
	var members int
	s.db.QueryRow(`SELECT count(*) FROM members WHERE channel_id = ?`, gone.ID).Scan(&members)
	if members != 0 {
		t.Errorf("%d members left", members)
	}
	hits, err := s.Search("walrus", 10)
	if err != nil || len(hits) != 1 || hits[0].Conv != keptConv {
		t.Errorf("search after delete: %+v, %v", hits, err)
	}
	checkIndex(t, s)
	// A new channel with the same name starts empty, in a new conversation.
	again, err := s.CreateChannel("gone", "")
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := s.ChannelConversation(again.ID)
	if n, _ := s.Count(conv); conv == goneConv || n != 0 {
		t.Errorf("recreated channel: conversation %d (old %d), %d entries", conv, goneConv, n)
	}
	if sess, _ := s.Session(conv, "alice"); sess != "" {
		t.Errorf("old session came back: %q", sess)
	}
	if _, err := s.ChannelConversation(gone.ID); !errors.Is(err, ErrNoChannel) {
		t.Errorf("conversation of a deleted channel: %v", err)
	}
}

func TestMembers(t *testing.T) {
	s := newTestStore(t)
	ch, _ := s.CreateChannel("team", "")
	for _, a := range []string{"carol", "alice", "bob", "alice", "carol"} {
		if err := s.AddMember(ch.ID, a); err != nil {
			t.Fatal(err)
		}
	}
	if m, err := s.Members(ch.ID); err != nil || !equalStrings(m, []string{"carol", "alice", "bob"}) {
		t.Errorf("Members = %q, %v", m, err)
	}
	if err := s.RemoveMember(ch.ID, "alice"); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveMember(ch.ID, "nobody"); err != nil {
		t.Errorf("removing a non-member: %v", err)
	}
	if err := s.AddMember(ch.ID, "alice"); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.Members(ch.ID); !equalStrings(m, []string{"carol", "bob", "alice"}) {
		t.Errorf("after remove and add: %q", m)
	}
	if err := s.AddMember(ch.ID, ""); !errors.Is(err, ErrBadName) {
		t.Errorf("empty agent: %v", err)
	}
	if err := s.AddMember(999, "alice"); !errors.Is(err, ErrNoChannel) {
		t.Errorf("member of a missing channel: %v", err)
	}
	chans, _ := s.Channels()
	if len(chans) != 1 || !equalStrings(chans[0].Members, []string{"carol", "bob", "alice"}) {
		t.Errorf("Channels = %+v", chans)
	}
}

func TestEnsureDeclared(t *testing.T) {
	s := newTestStore(t)
	declared := []config.Channel{
		{Name: "Général", Description: "everyone", Agents: []string{"alice", "bob"}},
		{Name: "review", Agents: []string{"carol"}},
	}
	created, added, err := s.EnsureDeclared(declared)
	if err != nil {
		t.Fatal(err)
	}
	if !equalStrings(created, []string{"Général", "review"}) || len(added) != 0 {
		t.Errorf("at start: created %q, added %v", created, added)
	}
	gen, _ := s.ChannelByName("général")
	if gen.Description != "everyone" || !equalStrings(gen.Members, []string{"alice", "bob"}) {
		t.Errorf("Général = %+v", gen)
	}
	// In the app: renamed in case, a member removed, a member added, one channel deleted.
	s.RenameChannel(gen.ID, "GÉNÉRAL")
	s.RemoveMember(gen.ID, "bob")
	s.AddMember(gen.ID, "dave")
	rev, _ := s.ChannelByName("review")
	s.DeleteChannel(rev.ID)
	s.SetDescription(gen.ID, "changed in the app")

	// Reload: the file lost "review" then got it back, and now declares more members.
	declared = []config.Channel{
		{Name: "général", Description: "everyone, again", Agents: []string{"alice", "bob", "erin"}},
		{Name: "review", Agents: []string{"carol"}},
		{Name: "new one", Description: "d", Agents: nil},
	}
	created, added, err = s.EnsureDeclared(declared)
	if err != nil {
		t.Fatal(err)
	}
	if !equalStrings(created, []string{"review", "new one"}) {
		t.Errorf("at reload: created %q", created)
	}
	if !reflect.DeepEqual(added, map[string][]string{"GÉNÉRAL": {"bob", "erin"}}) {
		t.Errorf("at reload: added %v", added)
	}
	gen, _ = s.Channel(gen.ID)
	if gen.Name != "GÉNÉRAL" || gen.Description != "changed in the app" || !equalStrings(gen.Members, []string{"alice", "dave", "bob", "erin"}) {
		t.Errorf("after reload: %+v", gen)
	}
	// Nothing new: nothing done.
	created, added, err = s.EnsureDeclared(declared)
	if err != nil || len(created) != 0 || len(added) != 0 {
		t.Errorf("second reload: %q %v %v", created, added, err)
	}
	chans, _ := s.Channels()
	if len(chans) != 3 {
		t.Errorf("%d channels, want 3", len(chans))
	}
	// A bad declared name changes nothing.
	_, _, err = s.EnsureDeclared([]config.Channel{{Name: "fine"}, {Name: strings.Repeat("x", 65)}})
	if !errors.Is(err, ErrBadName) {
		t.Errorf("bad declared name: %v", err)
	}
	if _, err := s.ChannelByName("fine"); !errors.Is(err, ErrNoChannel) {
		t.Errorf("a channel was created despite the error: %v", err)
	}
}
