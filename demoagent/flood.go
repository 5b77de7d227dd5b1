package demoagent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	sdk "github.com/coder/acp-go-sdk"
)

// floodMarker stands for a chunk's text in the pre-encoded flood message.
const floodMarker = "FLOOD-MARKER-7f3a"

// FloodEntryLines is how many lines /floodlines sends between two thoughts: a thought ends
// the reply's entry and the lines after it start a new one, so that no entry reaches the
// client's cap of 1 MiB (chat.MaxEntryText) and every line is shown.
const FloodEntryLines = 40_000

// FloodLine is the i-th line /floodlines sends (from 1), its newline included: every line
// is distinct, so a test or a script can wait for the last one.
func FloodLine(i int) string { return string(appendFloodLine(nil, i)) }

func appendFloodLine(b []byte, i int) []byte {
	b = append(b, "flood line "...)
	for d := 1_000_000; d > 1 && i < d; d /= 10 { // zero-padded to 7 digits: lines alike
		b = append(b, '0')
	}
	return append(strconv.AppendInt(b, int64(i), 10), '\n')
}

// FloodThought is the thought /floodlines sends after the i-th line when i is a multiple
// of FloodEntryLines (and not the last line).
func FloodThought(i int) string { return fmt.Sprintf("%d lines sent\n", i) }

// floodMessage is a session/update notification encoded once with the SDK types, cut
// where its text goes: only the text changes from one chunk to the next.
type floodMessage struct{ head, tail []byte }

func (t *turn) floodMessage(update func(string) sdk.SessionUpdate) (floodMessage, error) {
	msg, err := json.Marshal(outNotification{
		JSONRPC: "2.0",
		Method:  sdk.ClientMethodSessionUpdate,
		Params:  sdk.SessionNotification{SessionId: sdk.SessionId(t.session.ID), Update: update(floodMarker)},
	})
	if err != nil {
		return floodMessage{}, fmt.Errorf("encoding a flood chunk: %w", err)
	}
	head, tail, ok := bytes.Cut(msg, []byte(floodMarker))
	if !ok {
		return floodMessage{}, fmt.Errorf("encoding a flood chunk: the marker is missing")
	}
	return floodMessage{head, tail}, nil
}

// floodCount reads the count of /flood and /floodlines; ok is false after a usage message.
func (t *turn) floodCount(cmd, arg string) (int, bool, error) {
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 {
		return 0, false, t.sayAll(fmt.Sprintf("Usage: `/%s N`, with N between 1 and %d.", cmd, maxFloodCount))
	}
	return min(n, maxFloodCount), true, nil
}

// flood sends n chunks as fast as the pipe takes them: chunk(i) is the text of the i-th
// (from 1), JSON-escaped already; between(i), when set, is sent as a thought after the
// i-th when it returns text.
func (t *turn) flood(n int, chunk func(b []byte, i int) []byte, between func(i int) string) error {
	msg, err := t.floodMessage(sdk.UpdateAgentMessageText)
	if err != nil {
		return err
	}
	thought, err := t.floodMessage(sdk.UpdateAgentThoughtText)
	if err != nil {
		return err
	}
	line := make([]byte, 0, len(msg.head)+len(msg.tail)+64)
	for i := 1; i <= n; i++ {
		if i%256 == 0 {
			if err := t.ctx.Err(); err != nil {
				_ = t.a.wire.flush()
				return err
			}
		}
		line = append(chunk(append(line[:0], msg.head...), i), msg.tail...)
		if err := t.a.wire.writeRaw(line, false); err != nil {
			return err
		}
		if between == nil {
			continue
		}
		if text := between(i); text != "" {
			line = append(appendJSONText(append(line[:0], thought.head...), text), thought.tail...)
			if err := t.a.wire.writeRaw(line, false); err != nil {
				return err
			}
		}
	}
	if err := t.a.wire.flush(); err != nil {
		return fmt.Errorf("sending the flood: %w", err)
	}
	return nil
}

// appendJSONText appends text as the inside of a JSON string.
func appendJSONText(b []byte, text string) []byte {
	q, _ := json.Marshal(text)
	return append(b, q[1:len(q)-1]...)
}

// cmdFlood sends n small agent_message_chunks ("1 ", "2 ", …) as fast as the pipe takes
// them: one line that grows until the client's cap of an entry.
func (t *turn) cmdFlood(arg string) error {
	n, ok, err := t.floodCount("flood", arg)
	if !ok {
		return err
	}
	err = t.flood(n, func(b []byte, i int) []byte {
		return append(strconv.AppendInt(b, int64(i), 10), ' ')
	}, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(&t.reply, "(%d chunks flooded)", n)
	return nil
}

// cmdFloodLines sends n lines, one agent_message_chunk each (FloodLine), as fast as the
// pipe takes them, with a thought every FloodEntryLines lines so that each entry stays
// below the client's cap: a log scrolling by, every line of it shown.
func (t *turn) cmdFloodLines(arg string) error {
	n, ok, err := t.floodCount("floodlines", arg)
	if !ok {
		return err
	}
	err = t.flood(n, func(b []byte, i int) []byte {
		b = appendFloodLine(b, i)
		return append(b[:len(b)-1], `\n`...) // the newline, JSON-escaped
	}, func(i int) string {
		if i%FloodEntryLines == 0 && i < n {
			return FloodThought(i)
		}
		return ""
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(&t.reply, "(%d lines flooded)", n)
	return nil
}

// maxWordBytes bounds /word: the client's cap of an entry (chat.MaxEntryText, 1 MiB).
const maxWordBytes = 1 << 20

// wordChunk is how much of the word one agent_message_chunk carries.
const wordChunk = 4 << 10

// wordLetters are the word's letters: base64's, none a space or JSON-escaped.
const wordLetters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// WordByte is the i-th byte (from 0) of the word /word sends.
func WordByte(i int) byte { return wordLetters[(i*7+i/64)%len(wordLetters)] }

// cmdWord sends one word of n bytes with no space or line break (minified code, base64, a
// JSON blob), wordChunk bytes a chunk, as fast as the pipe takes them.
func (t *turn) cmdWord(arg string) error {
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 || n > maxWordBytes {
		return t.sayAll(fmt.Sprintf("Usage: `/word N`, with N between 1 and %d.", maxWordBytes))
	}
	chunks := (n + wordChunk - 1) / wordChunk
	err = t.flood(chunks, func(b []byte, i int) []byte {
		for j := (i - 1) * wordChunk; j < min(i*wordChunk, n); j++ {
			b = append(b, WordByte(j))
		}
		return b
	}, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(&t.reply, "(a word of %d bytes)", n)
	return nil
}
