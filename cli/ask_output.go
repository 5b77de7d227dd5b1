package cli

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	sdk "github.com/coder/acp-go-sdk"
)

// askFlushDelay is how long printed text may wait in the buffers: output is written in
// batches rather than one system call per chunk, and still looks live.
const askFlushDelay = 30 * time.Millisecond

// askRescanDelay is the least time between two looks at the conversation for what goes
// to stderr, so that a flood of chunks does not keep the printer busy.
const askRescanDelay = 20 * time.Millisecond

// askOutput prints one turn of `sidekicks ask`: the reply on stdout as it streams, and
// thoughts, tool calls and plans on stderr in one-line forms. Everything it prints is
// sanitized text. The reply comes straight from the agent's chunks (the conversation
// keeps 1 MiB of an entry; the reply printed is whole); the rest is read from the
// conversation when it changes.
type askOutput struct {
	mu      sync.Mutex
	out     *bufio.Writer
	err     *bufio.Writer
	armed   bool // a flush is scheduled
	replied bool // the reply printed so far is not empty
	lastNL  bool // and it ends with a newline

	conv  *chat.Conversation
	agent string
	lang  i18n.Lang // of what it says itself ("not finished")
	wake  chan struct{}
	stop  chan struct{}
	done  chan struct{}
	// What the printer has shown, by entry Seq: the status of a tool call, the plan.
	from   int
	shown  map[int64]bool
	status map[int64]string
	action map[int64]string // what toolDetail said of a tool call
	plans  map[int64][]chat.PlanEntry
	terms  map[string]*terminalShown // by entry Seq and terminal id
}

func newAskOutput(stdout, stderr io.Writer, lang i18n.Lang) *askOutput {
	return &askOutput{
		lang:   lang,
		out:    bufio.NewWriterSize(stdout, 64<<10),
		err:    bufio.NewWriterSize(stderr, 8<<10),
		wake:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
		shown:  make(map[int64]bool),
		status: make(map[int64]string),
		action: make(map[int64]string),
		plans:  make(map[int64][]chat.PlanEntry),
	}
}

// wrap is the Service's WrapHandler: the reply's chunks are printed as they arrive.
func (o *askOutput) wrap(_ chat.Key, _ string, h chat.SessionHandler) chat.SessionHandler {
	return replyTap{SessionHandler: h, o: o}
}

// replyTap prints the agent's message chunks, then hands everything to the conversation.
type replyTap struct {
	chat.SessionHandler
	o *askOutput
}

func (t replyTap) Chunk(kind, text string) {
	if kind == chat.ChunkAgentMessage {
		t.o.reply(text)
	}
	t.SessionHandler.Chunk(kind, text)
}

func (t replyTap) Update(u sdk.SessionUpdate) {
	if c := u.AgentMessageChunk; c != nil && c.Content.Text != nil {
		t.o.reply(c.Content.Text.Text)
	}
	t.SessionHandler.Update(u)
}

// TerminalOutput passes a terminal's output on to the conversation, where scan finds it.
func (t replyTap) TerminalOutput(id string, out chat.TerminalOutput) {
	chat.ForwardTerminal(t.SessionHandler, id, out)
}

// reply prints a piece of the reply.
func (o *askOutput) reply(text string) {
	text = safetext.Text(text)
	if text == "" {
		return
	}
	o.mu.Lock()
	_, _ = o.out.WriteString(text)
	o.replied = true
	o.lastNL = text[len(text)-1] == '\n'
	o.schedule()
	o.mu.Unlock()
}

// note prints a line on stderr, after what the reply has printed so far.
func (o *askOutput) note(line string) {
	o.mu.Lock()
	_ = o.out.Flush()
	_, _ = o.err.WriteString(safetext.Line(line))
	_ = o.err.WriteByte('\n')
	o.schedule()
	o.mu.Unlock()
}

// schedule arranges a flush soon. The caller holds the lock.
func (o *askOutput) schedule() {
	if !o.armed {
		o.armed = true
		time.AfterFunc(askFlushDelay, o.flush)
	}
}

func (o *askOutput) flush() {
	o.mu.Lock()
	o.armed = false
	_ = o.out.Flush()
	_ = o.err.Flush()
	o.mu.Unlock()
}

// watch starts printing what the conversation shows of agent on stderr.
func (o *askOutput) watch(conv *chat.Conversation, agent string) {
	o.conv, o.agent = conv, agent
	conv.OnChange(func() {
		select {
		case o.wake <- struct{}{}:
		default:
		}
	})
	go func() {
		defer close(o.done)
		for {
			select {
			case <-o.wake:
			case <-o.stop:
				return
			}
			o.scan()
			select {
			case <-time.After(askRescanDelay):
			case <-o.stop:
				return
			}
		}
	}()
}

// finish prints what is left once the turn has ended, ends the reply with a newline and
// writes everything out.
func (o *askOutput) finish() {
	if o.conv != nil {
		close(o.stop)
		<-o.done
		o.scan()
	}
	o.mu.Lock()
	if o.replied && !o.lastNL {
		_ = o.out.WriteByte('\n')
	}
	o.mu.Unlock()
	o.flush()
}

// scan prints the entries that changed since the last look: a finished thought, a tool
// call whose status changed, the steps of a plan that are new or changed.
func (o *askOutput) scan() {
	n := o.conv.Len()
	settled := true
	for i := o.from; i < n; i++ {
		e, ok := o.conv.Entry(i)
		if !ok {
			break
		}
		if e.Author == o.agent {
			o.show(e)
		}
		if settled && e.Done && (e.Kind != chat.KindToolCall || finalStatus(e)) {
			o.from = i + 1
		} else {
			settled = false
		}
	}
}

func finalStatus(e chat.Entry) bool {
	return e.Tool != nil && (e.Tool.Status == "completed" || e.Tool.Status == "failed")
}

func (o *askOutput) show(e chat.Entry) {
	switch e.Kind {
	case chat.KindThought:
		if e.Done && !o.shown[e.Seq] && strings.TrimSpace(e.Text) != "" {
			o.shown[e.Seq] = true
			o.note("[thinking] " + strings.TrimSpace(e.Text))
		}
	case chat.KindToolCall:
		if e.Tool == nil {
			return
		}
		status := e.Tool.Status
		switch {
		case e.Unfinished():
			status = askCatalogue.Text(o.lang, askToolUnfinished)
		case status == "":
			status = "pending"
		}
		if prev, ok := o.status[e.Seq]; !ok || prev != status {
			o.status[e.Seq] = status
			title := e.Tool.Title
			if title == "" {
				title = e.Tool.ID
			}
			o.note("[tool] " + title + " (" + status + ")")
		}
		o.showTerminals(e)
		// What it does, when first told and each time that changes: never approve blind.
		if what := toolDetail(e.Tool.Action()); what != o.action[e.Seq] {
			o.action[e.Seq] = what
			for line := range strings.SplitSeq(what, "\n") {
				if line != "" {
					o.note("[tool]   " + line)
				}
			}
		}
	case chat.KindPlan:
		prev := o.plans[e.Seq]
		for i, p := range e.Plan {
			if i < len(prev) && prev[i] == p {
				continue
			}
			o.note("[plan] " + planMark(p.Status) + " " + p.Content)
		}
		o.plans[e.Seq] = slices.Clone(e.Plan)
	}
}

// maxToolFiles is how many of a tool call's locations ask names; the others are counted.
const maxToolFiles = 5

// toolDetail says what a tool call does, on up to two lines: its kind and the files it
// works on ("edit → /src/a.go:12, /src/b.go"), then, for an execute call, "$ COMMAND".
func toolDetail(a chat.Action) string {
	var first []string
	if a.Kind != "" {
		first = append(first, a.Kind)
	}
	if len(a.Locations) > 0 {
		var files []string
		for _, l := range a.Locations[:min(len(a.Locations), maxToolFiles)] {
			files = append(files, safetext.Line(l.String()))
		}
		if extra := len(a.Locations) - maxToolFiles; extra > 0 {
			files = append(files, fmt.Sprintf("+%d", extra))
		}
		first = append(first, "→ "+strings.Join(files, ", "))
	}
	out := strings.Join(first, " ")
	if a.Command != "" {
		out += "\n$ " + a.Command
	}
	return out
}

// planMark shows a plan step's status.
func planMark(status string) string {
	switch status {
	case "completed":
		return "☑"
	case "in_progress":
		return "◐"
	}
	return "☐"
}

// printOutcome prints why the turn ended, when it did not end normally: the message's
// first line after "sidekicks ask: ", its other lines (what the agent itself said about
// its error) as they are. After an error of the agent it says where to look next: the
// trace file when there is one (tracing is its path), else how to make one.
func printOutcome(stderr io.Writer, msg string, agentError bool, tracing string, lang i18n.Lang) {
	if msg == "" {
		return
	}
	first, rest, _ := strings.Cut(msg, "\n")
	fmt.Fprintf(stderr, "sidekicks ask: %s\n", safetext.Line(first))
	for _, l := range strings.Split(rest, "\n") {
		if l != "" {
			fmt.Fprintln(stderr, safetext.Line(l))
		}
	}
	if !agentError {
		return
	}
	hint := askCatalogue.Text(lang, askSeeTraceHow)
	if tracing != "" {
		hint = askCatalogue.Text(lang, askSeeTrace, tracing)
	}
	fmt.Fprintf(stderr, "sidekicks ask: %s\n", safetext.Line(hint))
}
