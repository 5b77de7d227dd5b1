package chatwin

import (
	"fmt"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/window/windowtest"
)

// benchResize9 opens 9 agent windows tiled on a 200×60 screen, all on one conversation
// whose reply is text (as much as an entry keeps, chat.MaxEntryText), then measures a
// resize of the terminal: the screen goes from 200 to 180 columns and back, the windows are
// tiled again (3×3: every one changes width), and each re-wraps the entry it shows at its
// new width before the frame is drawn.
func benchResize9(b *testing.B, text string) {
	wd := newWorld(b, withSize(200, 60), withoutFrameCopies())
	wd.w.Conversation().Load([]chat.Entry{
		{Kind: chat.KindUser, Text: "paste the bundle", Turn: 1, Done: true},
		{Kind: chat.KindAgent, Author: "alice", Text: text, Turn: 1, Done: true},
	})
	var others []*Widget
	wd.do(func() {
		for i := 2; i <= 9; i++ {
			w := New(wd.app, wd.svc, chat.AgentKey("alice"), AgentInfo{Name: "alice", Title: "Alice"}, Options{Highlighter: wd.hl})
			win, err := wd.app.AddWindow(fmt.Sprintf("Alice %d", i), w)
			if err != nil {
				b.Fatal(err)
			}
			w.SetWindow(win)
			win.OnClose(w.Closed)
			others = append(others, w)
		}
	})
	for _, w := range others {
		wd.settled(w, "conversation", func() bool { return w.Conversation() != nil })
	}
	wd.Idle()
	shown := func() int { // the rows the nine views hold, each at its width
		n := 0
		for _, w := range append(others, wd.w) {
			n += w.view.Total()
		}
		return n
	}
	if rows := onUI(wd.harness, shown); rows < 9*len(text)/200 {
		b.Fatalf("%d rows laid out for 9 windows of %d bytes", rows, len(text))
	}
	b.SetBytes(int64(9 * len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		wd.resize(180+20*(i%2), 60) // 180, 200, 180…
	}
	b.StopTimer()
	wd.Idle()
	b.ReportMetric(float64(onUI(wd.harness, shown)), "rows")
}

// BenchmarkResize9 is a resize of 9 windows that each show a reply of chat.MaxEntryText
// bytes: text=words is ordinary words, the baseline; text=longword one word with no space
// (minified code, base64), which should cost within 2× the baseline measured in the same
// run. Compare them with benchstat -col /text.
func BenchmarkResize9(b *testing.B) {
	b.Run("text=words", func(b *testing.B) { benchResize9(b, windowtest.Words(chat.MaxEntryText)) })
	b.Run("text=longword", func(b *testing.B) { benchResize9(b, windowtest.LongWord(chat.MaxEntryText)) })
}
