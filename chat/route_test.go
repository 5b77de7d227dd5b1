package chat_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// routeAgents are the configuration's agents in the routing tests; "zed" is nobody.
var routeAgents = []chat.AgentRef{
	{Name: "alice", Title: "Alice Liddell"},
	{Name: "bob", Title: "Bob"},
	{Name: "carol", Title: "Carol"},
	{Name: "dan-2", Title: "Dan"},
}

// to is shorthand for targets that all receive the same text.
func to(text string, agents ...string) []chat.Target {
	var ts []chat.Target
	for _, a := range agents {
		ts = append(ts, chat.Target{Agent: a, Text: text})
	}
	return ts
}

func TestRoute(t *testing.T) {
	ab := []string{"alice", "bob"}
	tests := []struct {
		name    string
		text    string
		members []string
		targets []chat.Target
		added   []string
		note    bool
		hint    chat.Hint
		hintArg string // Routing.Name
	}{
		// A message is sent to the agents it mentions.
		{name: "one mention", text: "@alice hi", members: ab, targets: to("@alice hi", "alice")},
		{name: "two mentions", text: "@alice @bob compare", members: ab, targets: to("@alice @bob compare", "alice", "bob")},
		{name: "order of first mention", text: "@bob then @alice", members: ab, targets: to("@bob then @alice", "bob", "alice")},
		{name: "mentioned twice", text: "@alice, and @alice again", members: ab, targets: to("@alice, and @alice again", "alice")},
		{name: "mention in the middle", text: "please @bob check this", members: ab, targets: to("please @bob check this", "bob")},
		{name: "mention at the end", text: "what do you think @bob", members: ab, targets: to("what do you think @bob", "bob")},
		{name: "mention after a newline", text: "hi\n@bob", members: ab, targets: to("hi\n@bob", "bob")},
		{name: "mention after a tab", text: "x\t@bob", members: ab, targets: to("x\t@bob", "bob")},
		// With one member and no mention, to that member.
		{name: "no mention, one member", text: "hello", members: []string{"alice"}, targets: to("hello", "alice")},
		// With several members and no mention, a note, and a hint.
		{name: "no mention, several members", text: "hello", members: ab, note: true, hint: chat.HintAddress},
		{name: "no mention, no member", text: "hello", note: true, hint: chat.HintNoMembers},
		// Mentioning an agent that is not a member adds it.
		{name: "non-member mentioned", text: "@carol join us", members: []string{"alice"}, targets: to("@carol join us", "carol"), added: []string{"carol"}},
		{name: "member and non-member", text: "@alice @carol", members: ab, targets: to("@alice @carol", "alice", "carol"), added: []string{"carol"}},
		{name: "empty channel, mention", text: "@bob hi", targets: to("@bob hi", "bob"), added: []string{"bob"}},
		// An unknown name is plain text.
		{name: "unknown name, several members", text: "@zed hi", members: ab, note: true, hint: chat.HintAddress},
		{name: "unknown name, one member", text: "@zed hi", members: []string{"alice"}, targets: to("@zed hi", "alice")},
		{name: "unknown and known", text: "@zed @bob", members: ab, targets: to("@zed @bob", "bob")},
		// Punctuation after a name still mentions it.
		{name: "comma", text: "@alice, @bob: look", members: ab, targets: to("@alice, @bob: look", "alice", "bob")},
		{name: "no space after comma", text: "@alice,@bob look", members: ab, targets: to("@alice,@bob look", "alice", "bob")},
		{name: "full stop", text: "ask @bob.", members: ab, targets: to("ask @bob.", "bob")},
		{name: "ellipsis", text: "well @bob...", members: ab, targets: to("well @bob...", "bob")},
		{name: "exclamation", text: "@bob!", members: ab, targets: to("@bob!", "bob")},
		{name: "brackets", text: "(cc @bob)", members: ab, targets: to("(cc @bob)", "bob")},
		{name: "opening bracket", text: "(@bob and @alice)", members: ab, targets: to("(@bob and @alice)", "bob", "alice")},
		{name: "possessive", text: "@bob's idea", members: ab, targets: to("@bob's idea", "bob")},
		{name: "after a colon", text: "cc:@bob", members: ab, targets: to("cc:@bob", "bob")},
		{name: "name with a digit and a dash", text: "@dan-2 go", members: ab, targets: to("@dan-2 go", "dan-2"), added: []string{"dan-2"}},
		// Capitals: names are lower case, so @Alice can only be alice.
		{name: "capital", text: "@Alice hi", members: ab, targets: to("@Alice hi", "alice")},
		{name: "all capitals", text: "@BOB hi", members: ab, targets: to("@BOB hi", "bob")},
		// What is not a mention.
		{name: "e-mail address", text: "write to me@alice.com", members: ab, note: true, hint: chat.HintAddress},
		{name: "e-mail address, one member", text: "me@bob.com", members: []string{"alice"}, targets: to("me@bob.com", "alice")},
		{name: "file", text: "see @alice.md", members: ab, note: true, hint: chat.HintAddress},
		{name: "path", text: "see @alice/notes.txt", members: ab, note: true, hint: chat.HintAddress},
		{name: "longer word", text: "@alicebob hi", members: ab, note: true, hint: chat.HintAddress},
		{name: "longer name", text: "@alice-bob hi", members: ab, note: true, hint: chat.HintAddress},
		{name: "accented continuation", text: "@bobé hi", members: ab, note: true, hint: chat.HintAddress},
		{name: "address after a name", text: "@alice@bob.com", members: ab, note: true, hint: chat.HintAddress},
		{name: "lone at", text: "@ hi", members: ab, note: true, hint: chat.HintAddress},
		{name: "double at", text: "@@bob hi", members: ab, note: true, hint: chat.HintAddress},
		{name: "after a dot", text: "x.@bob", members: ab, note: true, hint: chat.HintAddress},
		// A member whose agent left the configuration can still be addressed.
		{name: "member not in the configuration", text: "@ghost hi", members: []string{"alice", "ghost"}, targets: to("@ghost hi", "ghost")},
		{name: "sole member not in the configuration", text: "hi", members: []string{"ghost"}, targets: to("hi", "ghost")},
		{name: "duplicate members", text: "hi", members: []string{"alice", "alice"}, targets: to("hi", "alice")},
		// /name:command sends /command to that agent only.
		{name: "command", text: "/alice:echo hi", members: ab, targets: []chat.Target{{Agent: "alice", Text: "/echo hi"}}},
		{name: "command with a capital", text: "/Alice:echo hi", members: ab, targets: []chat.Target{{Agent: "alice", Text: "/echo hi"}}},
		{name: "command without argument", text: "/bob:help", members: ab, targets: []chat.Target{{Agent: "bob", Text: "/help"}}},
		{name: "command on several lines", text: "/alice:echo hi\nthere", members: ab, targets: []chat.Target{{Agent: "alice", Text: "/echo hi\nthere"}}},
		{name: "command keeps its spaces", text: "/alice:echo   a  b ", members: ab, targets: []chat.Target{{Agent: "alice", Text: "/echo   a  b "}}},
		{name: "command mentions nobody", text: "/alice:echo hi @bob @carol", members: ab, targets: []chat.Target{{Agent: "alice", Text: "/echo hi @bob @carol"}}},
		{name: "command with a colon in it", text: "/alice:project:fix x", members: ab, targets: []chat.Target{{Agent: "alice", Text: "/project:fix x"}}},
		{name: "command to a non-member", text: "/carol:echo", members: ab, targets: []chat.Target{{Agent: "carol", Text: "/echo"}}, added: []string{"carol"}},
		{name: "command to an unknown agent", text: "/zed:x", members: ab, hint: chat.HintUnknownAgent, hintArg: "zed"},
		{name: "command to nobody", text: "/:echo hi", members: ab, hint: chat.HintCommandForm},
		{name: "command without command", text: "/alice: hi", members: ab, hint: chat.HintCommandForm},
		{name: "bare command, one member", text: "/echo hi", members: []string{"bob"}, targets: to("/echo hi", "bob")},
		{name: "bare command, several members", text: "/echo hi", members: ab, hint: chat.HintCommandForm},
		{name: "bare command, no member", text: "/echo hi", hint: chat.HintCommandForm},
		{name: "a slash later is text", text: "@bob /echo hi", members: ab, targets: to("@bob /echo hi", "bob")},
		// Nothing to send.
		{name: "empty", text: "", members: ab},
		{name: "blank", text: " \n\t", members: ab},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := chat.Route(tt.text, tt.members, routeAgents)
			if !reflect.DeepEqual(r.Targets, tt.targets) {
				t.Errorf("targets %q, want %q", r.Targets, tt.targets)
			}
			if !reflect.DeepEqual(r.Added, tt.added) {
				t.Errorf("added %q, want %q", r.Added, tt.added)
			}
			if r.Note != tt.note || r.Hint != tt.hint || r.Name != tt.hintArg {
				t.Errorf("note %v, hint %v %q; want %v, %v %q", r.Note, r.Hint, r.Name, tt.note, tt.hint, tt.hintArg)
			}
			if want := len(tt.targets) == 0 && !tt.note; r.Rejected() != want {
				t.Errorf("rejected %v, want %v", r.Rejected(), want)
			}
		})
	}
}

func TestRouteHints(t *testing.T) {
	ab := []string{"alice", "bob"}
	cases := []struct {
		r    chat.Routing
		want map[string][]string // language → what the hint says
	}{
		{chat.Route("hello", ab, routeAgents), map[string][]string{
			"en": {"note", "mention it: @alice @bob"}, "fr": {"note", "mentionnez-le : @alice @bob"}}},
		{chat.Route("hello", nil, routeAgents), map[string][]string{
			"en": {"Nobody is in this channel", "@name"}, "fr": {"aucun membre", "@nom"}}},
		{chat.Route("/echo", ab, routeAgents), map[string][]string{
			"en": {"/name:command"}, "fr": {"/nom:commande"}}},
		{chat.Route("/zed:x", ab, routeAgents), map[string][]string{
			"en": {"No agent is called “zed”"}, "fr": {"Aucun agent ne s'appelle « zed »"}}},
	}
	for _, c := range cases {
		for lang, parts := range c.want {
			got := c.r.HintText(i18n.Parse(lang))
			for _, p := range parts {
				if !strings.Contains(got, p) {
					t.Errorf("hint %v in %s: %q lacks %q", c.r.Hint, lang, got, p)
				}
			}
			if strings.Contains(got, "%!") {
				t.Errorf("hint %v in %s is badly formatted: %q", c.r.Hint, lang, got)
			}
		}
		if c.r.HintText(i18n.Parse("de")) != c.r.HintText(i18n.English) {
			t.Errorf("hint %v: an unknown language is not English", c.r.Hint)
		}
	}
	if got := chat.Route("@alice hi", ab, routeAgents).HintText(i18n.English); got != "" {
		t.Errorf("a routed message has a hint: %q", got)
	}
}

// A crowded channel's hint names a few members and says there are more.
func TestRouteHintCrowded(t *testing.T) {
	members := []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7"}
	got := chat.Route("hello", members, nil).HintText(i18n.English)
	if !strings.Contains(got, "@m1 @m2 @m3 @m4 @m5 …") || strings.Contains(got, "@m6") {
		t.Errorf("hint %q", got)
	}
}

// An unknown name is shown sanitized and cut.
func TestRouteHintHostileName(t *testing.T) {
	r := chat.Route("/\x1b[31mzed"+strings.Repeat("x", 500)+":x", []string{"alice"}, routeAgents)
	got := r.HintText(i18n.English)
	if r.Hint != chat.HintUnknownAgent || strings.ContainsRune(got, 0x1b) || len(got) > 250 {
		t.Errorf("hint %v %q", r.Hint, got)
	}
}

func TestJoinedNotice(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "alice joined the channel",
		"fr": "alice a rejoint le channel",
		"":   "alice joined the channel",
	} {
		if got := chat.JoinedNotice("alice", i18n.Parse(lang)); got != want {
			t.Errorf("%q: %q, want %q", lang, got, want)
		}
	}
	if got := chat.JoinedNotice("a\x1b]0;x\x07\nb", i18n.English); strings.ContainsAny(got, "\x1b\x07\n") {
		t.Errorf("notice not sanitized: %q", got)
	}
}

// Prompt building in a channel: @alice is the agent even where a file is called alice,
// @alice.md stays a file.
func TestChannelFiles(t *testing.T) {
	files := channelTestFiles{"alice": true, "alice.md": true, "zed": true}
	blocks := chat.BuildPrompt("@alice see @alice.md and @zed", chat.ChannelFiles(files, []string{"bob"}, routeAgents), false)
	var got []string
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			got = append(got, "text:"+b.Text.Text)
		case b.ResourceLink != nil:
			got = append(got, "link:"+b.ResourceLink.Name)
		}
	}
	want := []string{"text:@alice see ", "link:alice.md", "text: and ", "link:zed"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("blocks %q, want %q", got, want)
	}
	if chat.ChannelFiles(nil, nil, routeAgents) != nil {
		t.Error("no files should stay no files")
	}
}

type channelTestFiles map[string]bool

func (f channelTestFiles) Known(p string) bool           { return f[p] }
func (f channelTestFiles) Read(p string) (string, error) { return "body of " + p, nil }
func (f channelTestFiles) URI(p string) string           { return "file:///ws/" + p }

// commandNames lists the commands' names.
func commandNames(cmds []chat.Command) (out []string) {
	for _, c := range cmds {
		out = append(out, c.Name)
	}
	return out
}

func TestChannelCommands(t *testing.T) {
	cmds := map[string][]chat.Command{
		"alice": {{Name: "help", Description: "List my commands"}, {Name: "echo", Description: "Repeat", HasInput: true, InputHint: "text"}},
		"bob":   {{Name: "web", Description: "Search the web", HasInput: true}},
		"carol": {{Name: "secret", Description: "not a member"}},
	}
	got := chat.ChannelCommands([]string{"bob", "dan-2", "alice", "bob"}, cmds)
	want := []chat.Command{
		{Name: "bob:web", Description: "Search the web", HasInput: true},
		{Name: "alice:help", Description: "List my commands"},
		{Name: "alice:echo", Description: "Repeat", HasInput: true, InputHint: "text"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands %+v, want %+v", got, want)
	}
	if cmds["alice"][0].Name != "help" {
		t.Error("the members' commands were modified")
	}

	filters := []struct {
		typed string
		want  []string
	}{
		{"", []string{"bob:web", "alice:help", "alice:echo"}},
		{"ALI", []string{"alice:help", "alice:echo"}},
		{"alice:E", []string{"alice:echo"}},
		{"ech", []string{"alice:echo"}},
		{"b", []string{"bob:web"}},
		{"bob:h", nil},
		{":", nil},
		{"zzz", nil},
	}
	for _, f := range filters {
		if got := commandNames(chat.FilterCommands(want, f.typed)); !reflect.DeepEqual(got, f.want) {
			t.Errorf("filter %q: %q, want %q", f.typed, got, f.want)
		}
	}
	// An agent window's list (names without a colon) filters on the name's start.
	plain := []chat.Command{{Name: "help"}, {Name: "Heard"}, {Name: "echo"}}
	if got := commandNames(chat.FilterCommands(plain, "he")); !reflect.DeepEqual(got, []string{"help", "Heard"}) {
		t.Errorf("plain filter: %q", got)
	}
}

func TestCompleteAgents(t *testing.T) {
	members := []string{"bob", "ghost"}
	tests := []struct {
		typed string
		want  []chat.AgentRef
	}{
		{"", []chat.AgentRef{{Name: "bob", Title: "Bob"}, {Name: "ghost", Title: "ghost"}, routeAgents[0], routeAgents[2], routeAgents[3]}},
		{"a", []chat.AgentRef{routeAgents[0]}},
		{"Ali", []chat.AgentRef{routeAgents[0]}},
		{"d", []chat.AgentRef{routeAgents[3]}},
		{"B", []chat.AgentRef{{Name: "bob", Title: "Bob"}}},
		{"x", nil},
	}
	for _, tt := range tests {
		if got := chat.CompleteAgents(tt.typed, members, routeAgents); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("@%s: %+v, want %+v", tt.typed, got, tt.want)
		}
	}
}

func FuzzRoute(f *testing.F) {
	for _, s := range []string{
		"@alice hi", "@alice @bob", "hello", "/alice:echo hi", "/zed:x", "/echo", "/:x", "/alice:",
		"me@alice.com", "@alice.md", "(@bob), @Carol's", "@@", "@", "/", "\x00@alice\xff", "@alice\u0301",
	} {
		f.Add(s, "alice,bob")
		f.Add(s, "")
		f.Add(s, "carol")
	}
	agents := routeAgents
	f.Fuzz(func(t *testing.T, text, memberList string) {
		var members []string
		if memberList != "" {
			members = strings.Split(memberList, ",")
		}
		r := chat.Route(text, members, agents)
		isAgent := map[string]bool{}
		for _, a := range agents {
			isAgent[a.Name] = true
		}
		// Members are compared without case, and take the configuration's spelling.
		isMember := map[string]bool{}
		spelled := map[string]string{}
		for _, a := range agents {
			spelled[a.Name] = a.Name
		}
		for _, m := range members {
			if s, ok := spelled[strings.ToLower(m)]; ok {
				m = s
			} else {
				spelled[strings.ToLower(m)] = m
			}
			isMember[m] = true
		}
		seen := map[string]bool{}
		for _, tg := range r.Targets {
			if seen[tg.Agent] {
				t.Fatalf("%q targeted twice", tg.Agent)
			}
			seen[tg.Agent] = true
			if !isMember[tg.Agent] && !isAgent[tg.Agent] {
				t.Fatalf("target %q is nobody", tg.Agent)
			}
			if !isMember[tg.Agent] && !slices.Contains(r.Added, tg.Agent) {
				t.Fatalf("target %q is not a member and was not added", tg.Agent)
			}
			if strings.HasPrefix(text, "/") {
				// Either the text as typed (one member), or /name:command rewritten.
				if tg.Text != text {
					n := len(text) - len(tg.Text)
					if !strings.HasPrefix(tg.Text, "/") || !strings.HasSuffix(text, tg.Text[1:]) || n < 2 ||
						!strings.EqualFold(text[1:n], tg.Agent) || text[n] != ':' {
						t.Fatalf("command %q became %q for %q", text, tg.Text, tg.Agent)
					}
				}
			} else {
				if tg.Text != text {
					t.Fatalf("message %q became %q", text, tg.Text)
				}
				if len(r.Targets) > 1 || !isMember[tg.Agent] {
					if !strings.Contains(strings.ToLower(text), "@"+strings.ToLower(tg.Agent)) {
						t.Fatalf("%q targeted without a mention in %q", tg.Agent, text)
					}
				}
			}
		}
		for _, a := range r.Added {
			if isMember[a] || !seen[a] || !isAgent[a] {
				t.Fatalf("added %q: member %v, targeted %v, agent %v", a, isMember[a], seen[a], isAgent[a])
			}
		}
		if r.Note && len(r.Targets) > 0 {
			t.Fatal("a note with targets")
		}
		if strings.HasPrefix(text, "/") && (r.Note || len(r.Targets) > 1) {
			t.Fatalf("command %q: note %v, %d targets", text, r.Note, len(r.Targets))
		}
		for _, lang := range []string{"en", "fr"} {
			h := r.HintText(i18n.Parse(lang))
			if (h == "") != (r.Hint == chat.HintNone) || strings.ContainsRune(h, 0x1b) || !utf8.ValidString(h) {
				t.Fatalf("hint %v in %s: %q", r.Hint, lang, h)
			}
		}
	})
}

// Routing a pasted megabyte full of @ costs one pass over it.
func BenchmarkRoute(b *testing.B) {
	text := strings.Repeat("see @alice.md, ask @bob or me@carol.com and @zed! ", 1<<20/50)
	members := []string{"alice", "bob"}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if r := chat.Route(text, members, routeAgents); len(r.Targets) != 1 || r.Targets[0].Agent != "bob" {
			b.Fatalf("%+v", r.Targets)
		}
	}
}

// TestFilterCommandsLongTyped: what is typed after the / can be a megabyte pasted (a message
// that starts with a command's name, its input after it); no name starts with it, and it is
// not lowered to find that out at each key. A name in another case, a few characters long,
// still matches.
func TestFilterCommandsLongTyped(t *testing.T) {
	cmds := []chat.Command{{Name: "echo"}, {Name: "help"}, {Name: "review:ÉTAPE"}}
	typed := strings.Repeat("ECHO ", 200_000)
	var got []chat.Command
	if allocs := testing.AllocsPerRun(5, func() { got = chat.FilterCommands(cmds, typed) }); allocs != 0 || got != nil {
		t.Errorf("a megabyte typed after the /: %d commands, %v allocations (its lowered copy), want none", len(got), allocs)
	}
	if got := commandNames(chat.FilterCommands(cmds, "REVIEW:étape")); !reflect.DeepEqual(got, []string{"review:ÉTAPE"}) {
		t.Errorf("a name typed in another case matched %v", got)
	}
}
