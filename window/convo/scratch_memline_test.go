package convo

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

func TestScratchMemlineStream(t *testing.T) {
	out := os.Getenv("MEMLINE_PROF")
	if out == "" {
		t.Skip()
	}
	runtime.MemProfileRate = 1
	var text strings.Builder
	for i := range 20000 {
		if os.Getenv("MEMLINE_MD") != "" && i%10 == 0 {
			fmt.Fprintf(&text, "- item **%d** with `code`\n", i)
			continue
		}
		fmt.Fprintf(&text, "line %08d of the memory test..\n", i)
	}
	full := text.String()
	src := &fakeSource{}
	src.add(chat.Entry{Kind: chat.KindAgent, Author: "alice"})
	v := New(src, Options{})
	v.SetSize(200, 60)
	v.Sync()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	done := os.Getenv("MEMLINE_DONE") != ""
	for n := 0; n < len(full); n += 4000 {
		end := min(n+4000, len(full))
		src.set(0, chat.Entry{Kind: chat.KindAgent, Author: "alice", Text: full[:end], Done: done && end == len(full)})
		v.Sync()
		v.RowsAt(v.Top(), 60)
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	t.Logf("B/line %.1f (text %d B/line)", float64(ms.HeapAlloc-before)/20000, len(full)/20000)
	f, _ := os.Create(out)
	_ = pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	runtime.KeepAlive(v)
	runtime.KeepAlive(full)
}
