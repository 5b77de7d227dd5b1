package demoagent

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"
)

// Limits of the testing commands.
const (
	slowWords     = 2000
	slowMinDelay  = 10 * time.Millisecond
	maxFloodCount = 10_000_000
	crashStatus   = 3
)

// errCrashed stops a turn that ended the process with /crash.
var errCrashed = errors.New("crashed on purpose")

// command is one of the agent's slash commands.
type command struct {
	name        string
	description string
	hint        string // what the command expects after its name; "" when nothing
	run         func(t *turn, arg string) error
}

// commandList is announced with available_commands_update, in this order.
var commandList []*command

func init() {
	commandList = []*command{
		{"help", "List my commands", "", (*turn).cmdHelp},
		{"echo", "Reply with exactly the text given", "text to repeat", (*turn).cmdEcho},
		{"slow", "Stream a long reply slowly (to try cancelling)", "", (*turn).cmdSlow},
		{"read", "Read a file through the client and sum it up", "file", (*turn).cmdRead},
		{"write", "Write a text to a file, after asking permission", "file text", (*turn).cmdWrite},
		{"heard", "Show every block of this prompt, verbatim", "", (*turn).cmdHeard},
		{"flood", "Send N small chunks as fast as possible (testing aid)", "count", (*turn).cmdFlood},
		{"floodlines", "Send N lines, one chunk each, as fast as possible (testing aid)", "count", (*turn).cmdFloodLines},
		{"word", "Send one word of N bytes with no space, 4 KiB a chunk, as fast as possible (testing aid)", "count", (*turn).cmdWord},
		{"fail", "Answer the prompt with an error (testing aid)", "", (*turn).cmdFail},
		{"crash", "Exit with status 3 in the middle of the turn (testing aid)", "", (*turn).cmdCrash},
	}
}

func lookupCommand(name string) *command {
	for _, c := range commandList {
		if c.name == name {
			return c
		}
	}
	return nil
}

func (t *turn) cmdHelp(string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "I am %s, a demo agent. Without a command I answer with a thought, a plan and a code example in the language you name. My commands:\n\n", t.a.name)
	for _, c := range commandList {
		if c.hint != "" {
			fmt.Fprintf(&b, "- `/%s <%s>`: %s\n", c.name, c.hint, c.description)
		} else {
			fmt.Fprintf(&b, "- `/%s`: %s\n", c.name, c.description)
		}
	}
	return t.say(b.String())
}

func (t *turn) cmdEcho(arg string) error {
	return t.say(arg)
}

func (t *turn) cmdSlow(string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Here comes a slow stream of %d words; cancel it whenever you like.\n\n", slowWords)
	for i := 1; i <= slowWords; i++ {
		b.WriteString("word")
		b.WriteString(strconv.Itoa(i))
		if i%20 == 0 {
			b.WriteString("\n")
		} else {
			b.WriteString(" ")
		}
	}
	return t.stream(b.String(), max(t.a.opts.WordDelay, slowMinDelay), sdk.UpdateAgentMessageText, true)
}

func (t *turn) cmdHeard(string) error {
	return t.sayAll("Here is every block of the prompt I received:\n\n" + fenced("text", t.prompt.heard()))
}

func (t *turn) cmdFail(string) error {
	if err := t.say("This turn fails on purpose."); err != nil {
		return err
	}
	t.failure = &rpcError{Code: codeInternalError, Message: "the demo agent failed on purpose (/fail)"}
	return nil
}

func (t *turn) cmdCrash(string) error {
	if err := t.say(fmt.Sprintf("Crashing now, with exit status %d.", crashStatus)); err != nil {
		return err
	}
	t.a.exit(crashStatus)
	return errCrashed
}
