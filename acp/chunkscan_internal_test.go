package acp

import (
	"encoding/binary"
	"encoding/json"
	"math/rand"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// chunkLines are lines the scanner must recognize, with what it must find.
var chunkLines = []struct {
	line, session, kind, text string
}{
	{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"word "}}}}`,
		"s1", AgentMessageChunk, "word "},
	{` { "params" : { "update" : { "content" : { "text" : "a\nb\"c\\d\/e\u00e9\ud83d\ude00" , "type" : "text" , "annotations" : { "priority" : 1.5e-3 } } , "sessionUpdate" : "agent_thought_chunk" , "messageId" : null } , "sessionId" : "s\u0032" , "_meta" : [ true , false , null , -0 , { } , [ ] ] } , "method" : "session\/update" , "jsonrpc" : "2.0" } `,
		"s2", AgentThoughtChunk, "a\nb\"c\\d/eé😀"},
	{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"bad ` + "\xff" + ` \ud800 x"}}}}`,
		"s1", UserMessageChunk, "bad \uFFFD \uFFFD x"},
	{`{"method":"x","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","type":"text","text":"","text":"last"}}}}`,
		"s1", AgentMessageChunk, "last"},
}

func TestScanChunkRecognizesChunks(t *testing.T) {
	for _, tc := range chunkLines {
		got, ok := scanChunk([]byte(tc.line))
		if !ok || string(got.sessionID) != tc.session || got.kind != tc.kind || got.text != tc.text {
			t.Errorf("scanChunk(%.60q) = %q %q %q, %v; want %q %q %q", tc.line, got.sessionID, got.kind, got.text, ok, tc.session, tc.kind, tc.text)
		}
		checkAgainstJSON(t, []byte(tc.line))
	}
	// What the SDK writes.
	n := sdk.SessionNotification{SessionId: "abc", Update: sdk.UpdateAgentMessageText("héllo <&>\x1b[31m")}
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": n})
	if got, ok := scanChunk(line); !ok || got.text != "héllo <&>\x1b[31m" || string(got.sessionID) != "abc" {
		t.Errorf("scanChunk(%s) = %+v, %v", line, got, ok)
	}
}

func TestScanChunkGivesUp(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","content":{"type":"text","text":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"image","text":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}} x`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}},}`,
		`{"jsonrpc":"2.0","Method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"ſessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x` + "\x01" + `"}}}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}},"n":01}}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text"}}}}`,
		`[{"jsonrpc":"2.0"}]`,
		``,
	} {
		if got, ok := scanChunk([]byte(line)); ok {
			t.Errorf("scanChunk(%.80q) = %+v, want it to give up", line, got)
		}
		checkAgainstJSON(t, []byte(line))
	}
}

// checkAgainstJSON fails when the scanner recognizes a line that encoding/json would not
// decode into the same chunk.
func checkAgainstJSON(t *testing.T, line []byte) {
	t.Helper()
	got, ok := scanChunk(line)
	if !ok {
		return
	}
	var m fastMessage
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatalf("scanChunk accepted %q, which encoding/json refuses: %v", line, err)
	}
	u := m.Params.Update
	if m.ID != nil || m.Method != "session/update" || u.Content.Type != "text" || !isChunkKind(u.Kind) {
		t.Fatalf("scanChunk accepted %q, which is no text chunk for encoding/json: %+v", line, m)
	}
	if string(got.sessionID) != m.Params.SessionID || got.kind != u.Kind || got.text != u.Content.Text {
		t.Fatalf("scanChunk(%q) = %q %q %q, encoding/json %q %q %q", line, got.sessionID, got.kind, got.text,
			m.Params.SessionID, u.Kind, u.Content.Text)
	}
}

func FuzzScanChunk(f *testing.F) {
	for _, tc := range chunkLines {
		f.Add([]byte(tc.line))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"x"}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		checkAgainstJSON(t, line)
	})
}

// BenchmarkScanChunk scans the line of a chunk an agent floods with (the demo agent's
// /floodlines: a short line of text, its newline escaped), the reading goroutine's hot path.
func BenchmarkScanChunk(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789abcdef","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"flood line 0000001\n"}}}}`)
	prose := []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789abcdef","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"The scanner reads the line once, and copies the text of the chunk out of it: \"quoted\" words, a newline\nand a word in French, café, are unescaped on the way.\n"}}}}`)
	for _, tc := range []struct {
		name string
		line []byte
	}{{"flood", line}, {"prose", prose}} {
		b.Run("line="+tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.line)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := scanChunk(tc.line); !ok {
					b.Fatal("not a chunk")
				}
			}
		})
	}
}

// TestSpecial8: the eight-byte test agrees with a byte at a time, for words with one
// special byte anywhere, none, or several, and bytes of every value around them.
func TestSpecial8(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	check := func(b [8]byte) {
		want := false
		for _, c := range b {
			want = want || !plainJSON[c]
		}
		if got := special8(binary.LittleEndian.Uint64(b[:])); got != want {
			t.Fatalf("special8(%q) = %v, want %v", b[:], got, want)
		}
	}
	for range 200000 {
		var b [8]byte
		for i := range b {
			b[i] = byte(0x20 + rnd.Intn(0xe0)) // plain, mostly, but '"' and '\\'
		}
		check(b)
		b[rnd.Intn(8)] = byte(rnd.Intn(256)) // any byte, anywhere
		check(b)
	}
	for c := range 256 { // each byte value alone, in each place
		for i := range 8 {
			b := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
			b[i] = byte(c)
			check(b)
		}
	}
}
