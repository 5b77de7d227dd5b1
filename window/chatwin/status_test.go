package chatwin

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

func statusText(lines []window.TextLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Class.String())
		b.WriteString("|")
		b.WriteString(l.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func TestStatusLines(t *testing.T) {
	t.Parallel()
	conv := chat.New(chat.Options{})
	h := conv.Handler("alice", nil)
	h.Update(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: []sdk.AvailableCommand{
		{Name: "web", Description: "Search the web", Input: &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: "query"}}},
		{Name: "plan", Description: "Make a plan"},
	}}})
	h.Update(sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: "code"}})
	conn := chat.ConnStatus{
		UnknownUpdates: 3, LastUnknownKind: "future_update", LastUnknownError: "unknown kind\x1b[31m",
		Malformed: 1, Oversize: 2,
		AuthMethods: []chat.AuthMethod{{Name: "Log in with \x1b]0;x\x07GitHub", Description: "OAuth"}},
	}
	got := statusText(StatusLines(i18n.English, conv, "alice", conn))
	want := `syntax.keyword|Commands announced
text|  /web <query> — Search the web
text|  /plan — Make a plan
diagnostic.warning|Updates not understood: 3
text|  last: future_update (unknown kind)
diagnostic.warning|Updates ignored: 1
text|  last: current_mode_update
diagnostic.warning|Lines that were not messages: 1; too long: 2
diagnostic.error|Offers these logins: Agent ▸ Sign in…
text|  Log in with GitHub — OAuth
`
	if got != want {
		t.Errorf("status lines:\n%s\nwant:\n%s", got, want)
	}

	// No conversation yet, nothing ignored, in French.
	got = statusText(StatusLines(i18n.French, nil, "bob", chat.ConnStatus{}))
	want = `syntax.keyword|Commandes annoncées
syntax.comment|  aucune pour l'instant (un agent les annonce une fois sa session ouverte)
syntax.comment|Rien d'ignoré.
`
	if got != want {
		t.Errorf("status lines:\n%s\nwant:\n%s", got, want)
	}
}
