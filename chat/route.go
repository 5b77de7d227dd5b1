package chat

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// AgentRef is an agent of the configuration as channel routing knows it.
type AgentRef struct {
	// Name is the agent's name, as in @name and /name:command (lower case in a valid
	// configuration).
	Name string
	// Title is the name the screen shows.
	Title string
}

// Target is one agent a channel message goes to, with the text that agent receives.
type Target struct {
	Agent string
	Text  string
}

// Hint says what the input line should tell the user about a message it just routed.
type Hint int

// The hints of routing.
const (
	// HintNone: nothing to say.
	HintNone Hint = iota
	// HintAddress: several members and no mention; the message is a note and the hint says
	// how to address someone, naming the members.
	HintAddress
	// HintNoMembers: nobody is in the channel and no agent was mentioned; the message is a
	// note and the hint says that mentioning an agent adds it.
	HintNoMembers
	// HintCommandForm: a command that names no agent (/command in a channel that has not
	// exactly one member) or no command (/name:); nothing is sent.
	HintCommandForm
	// HintUnknownAgent: /name:command where name is no agent; nothing is sent.
	HintUnknownAgent
)

// Routing is where a message typed in a channel goes. There are three outcomes:
//   - Targets is not empty: the message is added to the channel once and each target gets
//     its Text. Added names the targets that are not members yet: add them to the channel
//     (and show JoinedNotice for each) before their turns start.
//   - Note is true: the message is added to the channel and goes to nobody; every member
//     hears it in its next catch-up. Hint says how to address someone.
//   - neither (Rejected): nothing is added or sent, the input keeps the text, and Hint, when
//     set, says what is wrong. Empty or blank text routes there with HintNone.
type Routing struct {
	Targets []Target
	Added   []string
	Note    bool
	Hint    Hint
	// Name is, for HintUnknownAgent, the name the command gave (sanitized, cut to a
	// reasonable length).
	Name string
	// members are the channel's members, for the text of HintAddress.
	members []string
}

// Rejected reports whether nothing is to be sent nor kept: the input should keep the text.
func (r Routing) Rejected() bool { return len(r.Targets) == 0 && !r.Note }

// maxHintMembers is the most members the address hint names, so that it fits on the input
// line of a crowded channel.
const maxHintMembers = 5

// maxNameLen bounds the names routing looks up: a configuration's names have 32 characters
// at most, and a longer run of name characters is never one of them.
const maxNameLen = 64

// HintText is the hint in lang, "" for HintNone.
func (r Routing) HintText(lang i18n.Lang) string {
	switch r.Hint {
	case HintAddress:
		var b strings.Builder
		for i, m := range r.members {
			if i == maxHintMembers {
				b.WriteString(" …")
				break
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("@" + safetext.Line(cutName(m)))
		}
		return routeCatalogue.Text(lang, rmsgAddress, b.String())
	case HintNoMembers:
		return routeCatalogue.Text(lang, rmsgNoMembers)
	case HintCommandForm:
		return routeCatalogue.Text(lang, rmsgCommandForm)
	case HintUnknownAgent:
		return routeCatalogue.Text(lang, rmsgUnknownAgent, r.Name)
	}
	return ""
}

// JoinedNotice is the line a channel shows when routing added an agent to it ("alice joined
// the channel"), in lang. who is the agent as the screen names it (its name or title).
func JoinedNotice(who string, lang i18n.Lang) string {
	return routeCatalogue.Text(lang, rmsgJoined, safetext.Line(who))
}

// Route decides where a message typed in a channel goes. members are the channel's members
// in their order; agents are every agent of the configuration. A name routing accepts is an
// agent's or a member's (a member whose agent left the configuration can still be
// addressed: the turn then says why it cannot start), compared without case, and reported
// as the configuration (or the member list) spells it.
//
// A text that starts with / is a command, read as Turbo Python reads one: its first word
// (up to white space) names it, and nothing in it is a mention.
//   - /name:command args sends "/command args" (the rest of the text unchanged) to that
//     agent only, adding it when it is not a member; a name of no agent is HintUnknownAgent,
//     and /:command or /name: alone is HintCommandForm: nothing is sent.
//   - /command args, without a name, goes as typed to the only member of a one-member
//     channel; with no member or several, it is HintCommandForm.
//
// Any other text is a message, routed by its @ mentions of agents:
//   - a mention is @ then a name, where a word starts: at the start of the text or after a
//     character that is not a letter, digit, mark, or one of _ - . @ / \ + (so me@alice.com
//     is not one, while "(@alice" and "@alice,@bob" are);
//   - the name is the longest run of name characters (ASCII letters, digits, - and _), and it
//     must be an agent's or a member's name whole, without case: @Alice mentions alice
//     (configured names are lower case, so a capital can only mean the same agent);
//   - what follows the name must not continue a word: a letter, digit or mark, or @, after
//     it, or . / \ followed by a letter, digit or _, means the word is something else
//     (@alice.md and @alice/notes.txt are files, @alicebob and @alice@host are not alice),
//     while punctuation does not (@alice, @alice: @alice. @alice's mention alice);
//   - a word whose name is nobody's is plain text, not an error.
//
// A mention of an agent thus takes precedence over a file of the same name: ChannelFiles
// makes prompt building agree. The message goes to the agents it mentions, in the order of
// their first mention, non-members among them added; without a mention, to the only member
// of a one-member channel, else it is a note (HintAddress, or HintNoMembers in an empty
// channel).
//
// Every target of a message receives the text unchanged, mentions included: an agent sees
// who was addressed with it, and all the agents of a turn read the same words (as will the
// catch-up of the others later).
func Route(text string, members []string, agents []AgentRef) Routing {
	if strings.TrimSpace(text) == "" {
		return Routing{}
	}
	book := newAddressBook(members, agents)
	if strings.HasPrefix(text, "/") {
		return book.routeCommand(text)
	}
	r := Routing{members: book.members}
	mentioned := book.mentions(text)
	if len(mentioned) == 0 {
		switch len(book.members) {
		case 0:
			r.Note, r.Hint = true, HintNoMembers
		case 1:
			r.Targets = []Target{{Agent: book.members[0], Text: text}}
		default:
			r.Note, r.Hint = true, HintAddress
		}
		return r
	}
	for _, name := range mentioned {
		r.Targets = append(r.Targets, Target{Agent: name, Text: text})
		if !book.isMember[name] {
			r.Added = append(r.Added, name)
		}
	}
	return r
}

// routeCommand routes a text that starts with /.
func (b *addressBook) routeCommand(text string) Routing {
	name, command, rest, named := splitCommand(text)
	if !named {
		if len(b.members) == 1 {
			return Routing{Targets: []Target{{Agent: b.members[0], Text: text}}}
		}
		return Routing{Hint: HintCommandForm}
	}
	if name == "" {
		return Routing{Hint: HintCommandForm}
	}
	agent, ok := b.lookup(name)
	if !ok {
		return Routing{Hint: HintUnknownAgent, Name: safetext.Line(cutName(name))}
	}
	if command == "" {
		return Routing{Hint: HintCommandForm}
	}
	r := Routing{Targets: []Target{{Agent: agent, Text: "/" + command + rest}}}
	if !b.isMember[agent] {
		r.Added = []string{agent}
	}
	return r
}

// splitCommand reads a command typed in a channel (text starts with /): its first word
// (up to white space) is name:command when named, else the command alone; rest is what
// follows the word, unchanged.
func splitCommand(text string) (name, command, rest string, named bool) {
	end := strings.IndexFunc(text, unicode.IsSpace)
	if end < 0 {
		end = len(text)
	}
	word, rest := text[1:end], text[end:]
	name, command, named = strings.Cut(word, ":")
	if !named {
		return "", word, rest, false
	}
	return name, command, rest, true
}

// CommandAgent returns the agent a channel's command line names (/alice:web query gives
// alice, as typed), false when text is no command or names no agent.
func CommandAgent(text string) (string, bool) {
	if !IsCommand(text) {
		return "", false
	}
	name, _, _, named := splitCommand(text)
	return name, named && name != ""
}

// addressBook is who can be addressed in one channel.
type addressBook struct {
	byKey    map[string]string // lower-case name → name as spelled
	isMember map[string]bool
	members  []string // unique, in order, without empty names
}

func newAddressBook(members []string, agents []AgentRef) *addressBook {
	b := &addressBook{byKey: make(map[string]string, len(members)+len(agents)), isMember: make(map[string]bool, len(members))}
	for _, a := range agents {
		if a.Name == "" {
			continue
		}
		if _, dup := b.byKey[strings.ToLower(a.Name)]; !dup {
			b.byKey[strings.ToLower(a.Name)] = a.Name
		}
	}
	for _, m := range members {
		if m == "" {
			continue
		}
		key := strings.ToLower(m)
		name, known := b.byKey[key]
		if !known {
			name = m
			b.byKey[key] = m
		}
		if !b.isMember[name] {
			b.isMember[name] = true
			b.members = append(b.members, name)
		}
	}
	return b
}

// lookup finds a name without case.
func (b *addressBook) lookup(name string) (string, bool) {
	if len(name) > maxNameLen {
		return "", false
	}
	n, ok := b.byKey[strings.ToLower(name)]
	return n, ok
}

// mentions returns the names a message mentions, each once, in the order of their first
// mention.
func (b *addressBook) mentions(text string) []string {
	var names []string
	prev := ' ' // the start of the text starts a word
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == '@' && startsWord(prev) {
			if name, end, ok := b.mentionAt(text, i); ok {
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
				i, prev = end, rune(text[end-1])
				continue
			}
		}
		i, prev = i+size, r
	}
	return names
}

// mentionAt reports whether the @ at text[i] begins a mention of a known name (not checking
// where the word starts), which name, and where the mention ends.
func (b *addressBook) mentionAt(text string, i int) (name string, end int, ok bool) {
	end = i + 1
	for end < len(text) && isNameByte(text[end]) {
		end++
	}
	if end == i+1 || continuesWord(text[end:]) {
		return "", 0, false
	}
	name, ok = b.lookup(text[i+1 : end])
	return name, end, ok
}

// startsWord reports whether an @ after prev begins a word.
func startsWord(prev rune) bool {
	return !unicode.IsLetter(prev) && !unicode.IsDigit(prev) && !unicode.IsMark(prev) &&
		!strings.ContainsRune("_-.@/\\+", prev)
}

// continuesWord reports whether after, what follows a name, makes the word something else
// than a mention of it.
func continuesWord(after string) bool {
	r, size := utf8.DecodeRuneInString(after)
	switch {
	case after == "":
		return false
	case unicode.IsLetter(r), unicode.IsDigit(r), unicode.IsMark(r), r == '@':
		return true
	case r == '.', r == '/', r == '\\':
		next, _ := utf8.DecodeRuneInString(after[size:])
		return unicode.IsLetter(next) || unicode.IsDigit(next) || next == '_'
	}
	return false
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// cutName bounds a name shown in a hint.
func cutName(s string) string {
	if len(s) <= maxNameLen {
		return s
	}
	cut := maxNameLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ChannelFiles is files as prompt building sees them in a channel: a word that is a mention
// of an agent (or member) is never a file, so that "@alice" goes as text even when the
// workspace holds a file called alice, while "@alice.md" stays a file. It returns nil when
// files is nil.
func ChannelFiles(files FileSource, members []string, agents []AgentRef) FileSource {
	if files == nil {
		return nil
	}
	return channelFiles{FileSource: files, book: newAddressBook(members, agents)}
}

type channelFiles struct {
	FileSource
	book *addressBook
}

// Known is SplitMentions' test: path is the word after an @ that starts a word.
func (f channelFiles) Known(path string) bool {
	if _, _, ok := f.book.mentionAt("@"+path, 0); ok {
		return false
	}
	return f.FileSource.Known(path)
}

// ChannelCommands lists the members' commands as a channel's / list shows them: each named
// "member:command" (what /member:command sends to that member), with the member's
// description, input and hint; in the order of members, then of each member's commands.
// commands holds what each member announced (Conversation.Commands); a member without any
// lists nothing.
func ChannelCommands(members []string, commands map[string][]Command) []Command {
	var out []Command
	for i, m := range members {
		if slices.Contains(members[:i], m) {
			continue
		}
		for _, c := range commands[m] {
			c.Name = m + ":" + c.Name
			out = append(out, c)
		}
	}
	return out
}

// FilterCommands keeps the commands whose name starts with typed (what follows the /),
// ignoring case, in their order. In a channel's list, where names are member:command, a
// typed text without a colon also matches the start of the command part: "/ech" finds
// alice:echo as well as a member called echo-bot.
func FilterCommands(cmds []Command, typed string) []Command {
	// No name can start with what is much longer than the longest: lowering a character
	// makes it at most three times shorter, and a name's at most half again as long. So a
	// megabyte pasted after a / is not lowered at each key.
	longest := 0
	for _, c := range cmds {
		longest = max(longest, len(c.Name))
	}
	if len(typed) > 5*longest {
		return nil
	}
	typed = strings.ToLower(typed)
	bare := !strings.Contains(typed, ":")
	var out []Command
	for _, c := range cmds {
		name := strings.ToLower(c.Name)
		_, command, named := strings.Cut(name, ":")
		if strings.HasPrefix(name, typed) || bare && named && strings.HasPrefix(command, typed) {
			out = append(out, c)
		}
	}
	return out
}

// CompleteAgents lists the agents that @typed may complete to in a channel (typed is what
// follows the @): the members first, in their order, then the configuration's other agents,
// in its order; those whose name or title starts with typed, ignoring case. A member whose
// agent left the configuration is listed with its name as title.
func CompleteAgents(typed string, members []string, agents []AgentRef) []AgentRef {
	typed = strings.ToLower(typed)
	match := func(a AgentRef) bool {
		return strings.HasPrefix(strings.ToLower(a.Name), typed) || strings.HasPrefix(strings.ToLower(a.Title), typed)
	}
	byName := make(map[string]AgentRef, len(agents))
	for _, a := range agents {
		if _, dup := byName[a.Name]; !dup && a.Name != "" {
			byName[a.Name] = a
		}
	}
	book := newAddressBook(members, agents)
	var out []AgentRef
	for _, m := range book.members {
		a, ok := byName[m]
		if !ok {
			a = AgentRef{Name: m, Title: m}
		}
		if match(a) {
			out = append(out, a)
		}
	}
	for _, a := range agents {
		if a.Name != "" && !book.isMember[a.Name] && byName[a.Name] == a && match(a) {
			out = append(out, a)
			delete(byName, a.Name) // a duplicate name is listed once
		}
	}
	return out
}
