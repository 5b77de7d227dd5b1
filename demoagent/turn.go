package demoagent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	sdk "github.com/coder/acp-go-sdk"
)

// Usage figures the agent pretends to have: a context window and a price per token.
const (
	contextSize   = 200_000
	costPerToken  = 0.000002
	usageCurrency = "USD"
)

// stopCrash is the internal stop reason of a turn that ended the process: nothing answers.
const stopCrash sdk.StopReason = "crash"

// turn is one session/prompt being answered.
type turn struct {
	a       *agent
	ctx     context.Context
	session *session
	cwd     string
	prompt  promptInfo
	reply   strings.Builder // everything said, kept in the history
	failure *rpcError       // set by /fail: the prompt is answered with this error
}

func (a *agent) prompt(m *inMessage) error {
	var p sdk.PromptRequest
	if !a.decodeParams(m, &p) {
		return nil
	}
	sess, ok := a.sessions.get(string(p.SessionId))
	if !ok {
		return a.wire.respondError(m.ID, codeInvalidParams, fmt.Sprintf("unknown session %q", p.SessionId))
	}
	ctx, cancel := context.WithCancel(a.ctx)
	if !a.sessions.beginTurn(sess, cancel) {
		cancel()
		return a.wire.respondError(m.ID, codeInvalidRequest, fmt.Sprintf("a turn is already running in session %q", sess.ID))
	}
	_, cwd := a.sessions.snapshot(sess)
	t := &turn{a: a, ctx: ctx, session: sess, cwd: cwd, prompt: parsePrompt(p.Prompt)}
	id := m.ID
	a.turns.Add(1)
	go func() {
		defer a.turns.Done()
		defer cancel()
		t.finish(id, t.run())
	}()
	return nil
}

// run answers the prompt and returns why the turn stopped.
func (t *turn) run() sdk.StopReason {
	var err error
	if c, ok := t.prompt.command(); ok {
		err = c.cmd.run(t, c.arg)
	} else {
		err = t.defaultReply()
	}
	switch {
	case errors.Is(err, errCrashed):
		return stopCrash
	case err != nil && t.ctx.Err() != nil:
		return sdk.StopReasonCancelled
	case err != nil:
		t.a.log("session %s: %v", t.session.ID, err)
		t.failure = &rpcError{Code: codeInternalError, Message: err.Error()}
	}
	return sdk.StopReasonEndTurn
}

// finish records the turn in the history, reports usage and answers the prompt.
func (t *turn) finish(id json.RawMessage, stop sdk.StopReason) {
	if stop == stopCrash {
		return
	}
	user := t.prompt.summary()
	tokens := (len(user) + t.reply.Len()) / 4
	used := t.a.sessions.endTurn(t.session, user, t.reply.String(), tokens)
	var err error
	switch {
	case t.failure != nil:
		err = t.a.wire.respondError(id, t.failure.Code, t.failure.Message)
	case stop == sdk.StopReasonEndTurn:
		err = t.a.update(t.session.ID, usageUpdate(used))
		if err == nil {
			err = t.a.wire.respond(id, sdk.PromptResponse{StopReason: stop})
		}
	default:
		err = t.a.wire.respond(id, sdk.PromptResponse{StopReason: stop})
	}
	if err != nil && !errors.Is(err, errClosed) {
		t.a.log("answering session/prompt: %v", err)
	}
}

func usageUpdate(used int) sdk.SessionUpdate {
	used = min(used, contextSize)
	return sdk.SessionUpdate{UsageUpdate: &sdk.SessionUsageUpdate{
		Used: used,
		Size: contextSize,
		Cost: &sdk.Cost{Amount: float64(used) * costPerToken, Currency: usageCurrency},
	}}
}

// say streams text as the agent's message, word by word, WordDelay apart.
func (t *turn) say(text string) error {
	return t.stream(text, t.a.opts.WordDelay, sdk.UpdateAgentMessageText, true)
}

// sayAll sends text as the agent's message in one chunk.
func (t *turn) sayAll(text string) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	t.reply.WriteString(text)
	return t.send(sdk.UpdateAgentMessageText(text))
}

// think streams text as a thought, word by word.
func (t *turn) think(text string) error {
	return t.stream(text, t.a.opts.WordDelay, sdk.UpdateAgentThoughtText, false)
}

// stream sends text in pieces of one word (with the spaces that follow it), delay apart,
// and stops as soon as the turn is cancelled.
func (t *turn) stream(text string, delay time.Duration, update func(string) sdk.SessionUpdate, keep bool) error {
	for i, w := range splitWords(text) {
		if i > 0 {
			if err := t.sleep(delay); err != nil {
				return err
			}
		} else if err := t.ctx.Err(); err != nil {
			return err
		}
		if keep {
			t.reply.WriteString(w)
		}
		if err := t.send(update(w)); err != nil {
			return err
		}
	}
	return nil
}

func (t *turn) send(u sdk.SessionUpdate) error {
	return t.a.update(t.session.ID, u)
}

// sleep waits d, or less when the turn is cancelled (then it returns the context's error).
func (t *turn) sleep(d time.Duration) error {
	if d <= 0 {
		return t.ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.ctx.Done():
		return t.ctx.Err()
	case <-timer.C:
		return nil
	}
}

// splitWords cuts s into words, each with the white space that follows it, so that the
// pieces put back together are s exactly.
func splitWords(s string) []string {
	var words []string
	start := 0
	inSpace := true // leading space stays with the first word
	for i, r := range s {
		space := unicode.IsSpace(r)
		if !space && inSpace && i > start && hasNonSpace(s[start:i]) {
			words = append(words, s[start:i])
			start = i
		}
		inSpace = space
	}
	if start < len(s) {
		words = append(words, s[start:])
	}
	return words
}

func hasNonSpace(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsSpace(r) }) >= 0
}

// plan sends the three-step plan with the given statuses.
func (t *turn) plan(lang language, s1, s2, s3 sdk.PlanEntryStatus) error {
	return t.send(sdk.UpdatePlan(
		sdk.PlanEntry{Content: "Understand the request", Priority: sdk.PlanEntryPriorityHigh, Status: s1},
		sdk.PlanEntry{Content: "Write a small " + lang.title + " example", Priority: sdk.PlanEntryPriorityMedium, Status: s2},
		sdk.PlanEntry{Content: "Sum up and suggest what to try next", Priority: sdk.PlanEntryPriorityLow, Status: s3},
	))
}

// defaultReply answers a prompt that names no command: a thought, a plan that advances,
// and a markdown reply with a code block in the language the prompt names.
func (t *turn) defaultReply() error {
	const (
		pending  = sdk.PlanEntryStatusPending
		running  = sdk.PlanEntryStatusInProgress
		complete = sdk.PlanEntryStatusCompleted
	)
	p := t.prompt
	lang := detectLanguage(p.text)
	if err := t.plan(lang, running, pending, pending); err != nil {
		return err
	}
	thought := fmt.Sprintf("The request has %d words", len(strings.Fields(p.text)))
	if n := len(p.files); n > 0 {
		thought += fmt.Sprintf(" and %d attached file(s)", n)
	}
	thought += fmt.Sprintf(". It points to %s, so I will answer with a short %s example and a summary.", lang.title, lang.title)
	if err := t.think(thought); err != nil {
		return err
	}
	if err := t.plan(lang, complete, running, pending); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "I am %s, a demo agent built into Sidekicks. I need no network: what follows is made up on the spot.\n\n", t.a.name)
	b.WriteString("You asked:\n\n")
	b.WriteString(blockquote(p.text))
	b.WriteString("\n")
	if len(p.files) > 0 {
		fmt.Fprintf(&b, "You sent me %d file(s):\n\n", len(p.files))
		for _, f := range p.files {
			if f.embedded {
				fmt.Fprintf(&b, "- `%s`, embedded, %d bytes\n", f.uri, f.size)
			} else {
				fmt.Fprintf(&b, "- `%s`, a link (I did not open it)\n", f.uri)
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Here is a small example in **%s**:\n\n%s\n", lang.title, fenced(lang.fence, lang.snippet))
	if err := t.say(b.String()); err != nil {
		return err
	}
	if err := t.plan(lang, complete, complete, running); err != nil {
		return err
	}
	if err := t.say("Type `/help` to see my commands."); err != nil {
		return err
	}
	return t.plan(lang, complete, complete, complete)
}

// blockquote quotes text in markdown, cut to a reasonable length.
func blockquote(text string) string {
	text = strings.TrimSpace(clip(text, 600))
	if text == "" {
		return "> (no text)\n"
	}
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		b.WriteString("> ")
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
}

// fenced wraps content in a code fence longer than any run of backticks inside it.
func fenced(lang, content string) string {
	longest, run := 0, 0
	for _, r := range content {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	if !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return fence + lang + "\n" + content + fence + "\n"
}
