package chat_test

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
)

// The acp client calls the conversation through its SessionHandler interface.
var _ acp.SessionHandler = (*chat.AgentHandler)(nil)

// The chunk kinds the acp client passes to Chunk are the ones the conversation knows.
func TestChunkKindsMatchACP(t *testing.T) {
	pairs := [][2]string{
		{acp.AgentMessageChunk, chat.ChunkAgentMessage},
		{acp.AgentThoughtChunk, chat.ChunkAgentThought},
		{acp.UserMessageChunk, chat.ChunkUserMessage},
	}
	for _, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("acp sends %q, chat expects %q", p[0], p[1])
		}
	}
}
