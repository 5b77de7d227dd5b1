package chat

import (
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// DefaultCatchUpBytes is the catch-up's bound when none is given: about 8,000 tokens, room
// for a good part of a conversation without crowding a small local model's context.
const DefaultCatchUpBytes = 32 << 10

// MinCatchUpBytes is the smallest bound CatchUp honours: below it there would be no room
// for its header and a useful part of one message.
const MinCatchUpBytes = 1 << 10

// The fixed lines of a catch-up. They are English whatever the screen's language: the
// catch-up is written for the agent, not shown to the user; models follow English framing
// best; and an agent's session must not read differently because the user switched
// ui.language between two turns.
const (
	catchUpHeader = "Catch-up: what was said in this channel that you have not seen yet, oldest first. " +
		"You are @%s. Each message is quoted, line by line, under who said it.\n\n"
	catchUpFooter  = "End of the catch-up. The message addressed to you follows.\n\n"
	catchUpOmitted = "(%d earlier messages were left out to keep this short.)\n\n"
	catchUpOmitOne = "(1 earlier message was left out to keep this short.)\n\n"
	catchUpQuote   = "> "
	catchUpCutMark = "…"
)

// CatchUp writes what an agent missed in a channel, as the first block of its prompt.
// unseen is what the store has not yet shown the agent, oldest first (Store.Unseen); it must
// not hold the message being sent, which follows the catch-up in the prompt.
//
// What it keeps: the user's messages (notes included) and the other agents' replies. It
// leaves out the agent's own entries (it knows what it said), the commands it received
// itself (/alice:web: they were its prompts), the others' thoughts (their
// private reasoning), tool calls and plans (the work behind a reply, long and noisy; the
// reply says what came of it), and Sidekicks' notices (written for the user, in the user's
// language). Empty messages are skipped.
//
// Each message is a line naming its speaker, "The user said:" or "@bob said:", then its
// text with every line quoted by "> ", so that no text can pass for a speaker's line. A
// reply still streaming is marked as unfinished, one cut at MaxEntryText as cut.
//
// The block is at most maxBytes long (DefaultCatchUpBytes when maxBytes ≤ 0,
// MinCatchUpBytes when it is smaller than that). The newest messages are kept: messages are
// taken from the newest back while they fit whole; the older ones are left out, counted in
// omitted, and the block says how many. When even the newest does not fit alone, its end is
// kept (a reply's conclusion, the last words before the message at hand) and marked as cut.
//
// It returns "" when there is nothing to tell.
func CatchUp(unseen []Entry, agent string, maxBytes int) (block string, omitted int) {
	return catchUp(unseen, agent, maxBytes, 0)
}

// catchUpBytes is the bound CatchUp honours for maxBytes.
func catchUpBytes(maxBytes int) int {
	switch {
	case maxBytes <= 0:
		return DefaultCatchUpBytes
	case maxBytes < MinCatchUpBytes:
		return MinCatchUpBytes
	}
	return maxBytes
}

// catchUp is CatchUp of the newest of what the agent missed, earlier messages before them
// left unread (ChannelStore.Unseen): they count as left out.
func catchUp(unseen []Entry, agent string, maxBytes, earlier int) (block string, omitted int) {
	maxBytes = catchUpBytes(maxBytes)
	answered := answeredTurns(unseen, agent)
	hears := func(e Entry) bool { return hearsOf(e, agent, answered) }
	heard, newest := 0, -1
	for i, e := range unseen {
		if hears(e) {
			heard, newest = heard+1, i
		}
	}
	if heard+earlier == 0 {
		return "", 0
	}
	header := fmt.Sprintf(catchUpHeader, safetext.Line(cutName(agent)))
	room := maxBytes - len(header) - len(catchUpFooter) - len(omittedLine(heard+earlier))

	// From the newest back, while whole messages fit.
	var kept []string
	for i := newest; i >= 0; i-- {
		if !hears(unseen[i]) {
			continue
		}
		if len(catchUpText(unseen[i])) >= room { // quoted, it only grows
			break
		}
		m := renderHeard(unseen[i], false) + "\n"
		if len(m) > room {
			break
		}
		kept = append(kept, m)
		room -= len(m)
	}
	if len(kept) == 0 && newest >= 0 {
		if m := renderTail(unseen[newest], room); m != "" {
			kept = append(kept, m)
		}
	}
	omitted = heard + earlier - len(kept)

	var b strings.Builder
	b.Grow(maxBytes)
	b.WriteString(header)
	if omitted > 0 {
		b.WriteString(omittedLine(omitted))
	}
	for i := len(kept) - 1; i >= 0; i-- {
		b.WriteString(kept[i])
	}
	b.WriteString(catchUpFooter)
	return b.String(), omitted
}

// ChannelPrompt is the prompt of an agent addressed in a channel by a message that is not a
// command: the catch-up as a first text block, when there is one, then the message's blocks
// (BuildPrompt's). A command gets no catch-up (Channels' Prepare): it must open the prompt.
func ChannelPrompt(catchUp string, message []sdk.ContentBlock) []sdk.ContentBlock {
	if catchUp == "" {
		return message
	}
	out := make([]sdk.ContentBlock, 0, 1+len(message))
	out = append(out, sdk.TextBlock(catchUp))
	return append(out, message...)
}

// hearsOf reports whether the catch-up of agent repeats e; answered holds the turns the
// agent answered (answeredTurns).
func hearsOf(e Entry, agent string, answered map[int64]bool) bool {
	return (e.Kind == KindUser && !receivedCommand(e, agent, answered) || e.Kind == KindAgent && e.Author != agent) &&
		catchUpText(e) != ""
}

// answeredTurns returns the turns in which the agent replied or worked, nil when none.
func answeredTurns(es []Entry, agent string) map[int64]bool {
	var turns map[int64]bool
	for _, e := range es {
		if e.Author == agent && e.Kind != KindNotice && e.Turn > 0 {
			if turns == nil {
				turns = make(map[int64]bool)
			}
			turns[e.Turn] = true
		}
	}
	return turns
}

// receivedCommand reports whether e is a command the agent received as a prompt of its
// own: one that names it (/alice:web), or one that names nobody (a one-member channel's
// /web) in a turn the agent answered. The agent has it already, with its own answer; its
// catch-up does not repeat it.
func receivedCommand(e Entry, agent string, answered map[int64]bool) bool {
	if e.Kind != KindUser || !IsCommand(e.Text) {
		return false
	}
	if name, _, _, named := splitCommand(e.Text); named {
		return strings.EqualFold(name, agent)
	}
	return answered[e.Turn]
}

func omittedLine(n int) string {
	if n == 1 {
		return catchUpOmitOne
	}
	return fmt.Sprintf(catchUpOmitted, n)
}

// catchUpText is the part of an entry's text worth repeating: without blank lines or
// trailing spaces around it.
func catchUpText(e Entry) string {
	return strings.TrimRight(strings.TrimLeft(e.Text, "\n"), " \t\n")
}

// speakerLine names who said a message, with what the reader should know about its text.
func speakerLine(e Entry, cut bool) string {
	who := "The user"
	if e.Kind == KindAgent {
		who = "@" + safetext.Line(cutName(e.Author))
	}
	var notes []string
	if !e.Done {
		notes = append(notes, "still answering: this is what it had written so far")
	}
	if e.Lost > 0 {
		notes = append(notes, "too long: its end was not kept")
	}
	if cut {
		notes = append(notes, "long: only its end is kept here")
	}
	if len(notes) == 0 {
		return who + " said:\n"
	}
	return who + " said (" + strings.Join(notes, "; ") + "):\n"
}

// renderHeard writes one message: its speaker line, then its text quoted.
func renderHeard(e Entry, cut bool) string {
	text := catchUpText(e)
	var b strings.Builder
	b.Grow(len(text) + len(text)/16 + 64)
	b.WriteString(speakerLine(e, cut))
	quoteLines(&b, text)
	return b.String()
}

// quoteLines writes text with every line quoted.
func quoteLines(b *strings.Builder, text string) {
	for line := range strings.SplitSeq(text, "\n") {
		if line == "" {
			b.WriteString(strings.TrimSpace(catchUpQuote) + "\n")
			continue
		}
		b.WriteString(catchUpQuote)
		b.WriteString(line)
		b.WriteByte('\n')
	}
}

// renderTail writes the end of a message too long for room: its speaker line, a mark, and
// as much of its last text as fits. It returns "" when room cannot hold a useful part.
func renderTail(e Entry, room int) string {
	head := speakerLine(e, true)
	room -= len(head) + len(catchUpQuote) + len(catchUpCutMark) + len("\n\n")
	if room < 64 {
		return ""
	}
	text := catchUpText(e)
	// Walk back from the end: each byte costs itself, each line break also the quote of the
	// line after it.
	start, cost := len(text), 0
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		c := size
		if r == '\n' {
			c += len(catchUpQuote)
		}
		if cost+c > room {
			break
		}
		start, cost = start-size, cost+c
	}
	var b strings.Builder
	b.Grow(len(head) + cost + 16)
	b.WriteString(head)
	b.WriteString(catchUpQuote + catchUpCutMark)
	tail := text[start:]
	if first, rest, more := strings.Cut(tail, "\n"); more {
		b.WriteString(first + "\n")
		quoteLines(&b, rest)
	} else {
		b.WriteString(tail + "\n")
	}
	b.WriteByte('\n')
	return b.String()
}
