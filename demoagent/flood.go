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

// cmdFlood sends n small agent_message_chunks as fast as the pipe takes them: the message
// is encoded once with the SDK types, then only the text changes.
func (t *turn) cmdFlood(arg string) error {
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil || n < 1 {
		return t.sayAll(fmt.Sprintf("Usage: `/flood N`, with N between 1 and %d.", maxFloodCount))
	}
	n = min(n, maxFloodCount)
	msg, err := json.Marshal(outNotification{
		JSONRPC: "2.0",
		Method:  sdk.ClientMethodSessionUpdate,
		Params:  sdk.SessionNotification{SessionId: sdk.SessionId(t.session.ID), Update: sdk.UpdateAgentMessageText(floodMarker)},
	})
	if err != nil {
		return fmt.Errorf("encoding a flood chunk: %w", err)
	}
	head, tail, ok := bytes.Cut(msg, []byte(floodMarker))
	if !ok {
		return fmt.Errorf("encoding a flood chunk: the marker is missing")
	}
	line := make([]byte, 0, len(msg)+16)
	for i := 1; i <= n; i++ {
		if i%256 == 0 {
			if err := t.ctx.Err(); err != nil {
				_ = t.a.wire.flush()
				return err
			}
		}
		line = append(line[:0], head...)
		line = strconv.AppendInt(line, int64(i), 10)
		line = append(line, ' ')
		line = append(line, tail...)
		if err := t.a.wire.writeRaw(line, false); err != nil {
			return err
		}
	}
	if err := t.a.wire.flush(); err != nil {
		return fmt.Errorf("sending the flood: %w", err)
	}
	fmt.Fprintf(&t.reply, "(%d chunks flooded)", n)
	return nil
}
