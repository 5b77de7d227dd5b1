package chatwin

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// streamBig streams entries of per lines each (lineText, numbered from 0 across them),
// each larger than a frame's findBudget, a thought between two, and waits until they are
// saved.
func streamBig(wd *world, entries, per int) {
	wd.agent.release = make(chan struct{})
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/stream") }) })
	wd.started()
	h := wd.agent.handler()
	for e := range entries {
		var b strings.Builder
		for i := e * per; i < (e+1)*per; i++ {
			b.WriteString(lineText(i))
		}
		h.Chunk(chat.ChunkAgentMessage, b.String())
		h.Chunk(chat.ChunkAgentThought, "a thought\n")
		wd.sync()
	}
	close(wd.agent.release)
	wd.turnEnded()
	wd.w.Conversation().Flush()
	wd.sync()
}

// An answer still arriving is searched as it comes: the count grows with it, and Shift-F3
// reaches the matches that came after the one shown, the last line's too.
func TestFindFollowsAStreamingAnswer(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withSize(80, 20))
	wd.agent.release = make(chan struct{})
	wd.do(func() { wd.w.calls.Do(func() { _ = wd.svc.Send(chat.AgentKey("alice"), "/stream") }) })
	wd.started()
	h := wd.agent.handler()
	h.Chunk(chat.ChunkAgentMessage, "word1 word2\nword3 ")
	wd.sync()
	wd.ctrl('f')
	wd.typeText("word")
	wd.waitText("match 3 of 3")
	h.Chunk(chat.ChunkAgentMessage, "word4\nword5 wo")
	wd.waitText("match 3 of 5")
	wd.key(tcell.KeyF3, tcell.ModShift)
	wd.waitText("match 4 of 5")
	wd.key(tcell.KeyF3, tcell.ModShift)
	wd.waitText("match 5 of 5")
	wd.key(tcell.KeyF3, tcell.ModShift)
	wd.waitText("no newer match")
	h.Chunk(chat.ChunkAgentMessage, "rd6")
	wd.waitText("match 5 of 6")
	wd.key(tcell.KeyF3, tcell.ModShift)
	wd.waitText("match 6 of 6")
	close(wd.agent.release)
	wd.turnEnded()
	wd.sync()
	wd.key(tcell.KeyF3, tcell.ModShift)
	wd.waitText("no newer match")
	wd.press(tcell.KeyEnter)
	wd.waitText("match 5 of 6")
}
