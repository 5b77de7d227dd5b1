package acp_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// TestHostileTextReachesTheHandlerButNotOurMessages checks that every text an agent
// sends reaches the handler as it was sent (the chat model sanitizes it), invalid UTF-8
// aside, and that no message of the client's own — errors, statistics, answers to the
// agent — carries a control character the agent chose.
func TestHostileTextReachesTheHandlerButNotOurMessages(t *testing.T) {
	ws := workspaceDir(t)
	c, s, rec := session(t, "basic", acp.Options{Workspace: runtime.NewLocalWorkspace(ws, nil)})
	rec.setPerm(allow)
	_, err := s.Prompt(testContext(t), text("hostile"))

	// The turn's error: the agent's message, cleaned.
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("err = %v, want the agent's error", err)
	}
	if hasControl(err.Error()) || hasControl(acp.Describe(err, i18n.French)) {
		t.Errorf("error message %q holds a control character", err)
	}

	// What the handler got.
	reply := rec.textOf(acp.AgentMessageChunk)
	if !strings.HasPrefix(reply, "bad\uFFFD\uFFFD utf8 "+hostile) {
		t.Errorf("agent text begins %q, want the invalid UTF-8 replaced and the hostile text as sent", reply[:min(len(reply), 80)])
	}
	if !utf8.ValidString(reply) {
		t.Error("the handler got invalid UTF-8")
	}
	if got := rec.textOf(acp.AgentThoughtChunk); got != hostile {
		t.Errorf("thought = %q", got)
	}
	var title, planEntry, cmdName, cmdDesc string
	for _, u := range rec.allUpdates() {
		switch {
		case u.ToolCall != nil:
			title = u.ToolCall.Title
		case u.Plan != nil && len(u.Plan.Entries) == 1:
			planEntry = u.Plan.Entries[0].Content
		case u.AvailableCommandsUpdate != nil && len(u.AvailableCommandsUpdate.AvailableCommands) == 1:
			cmdName = u.AvailableCommandsUpdate.AvailableCommands[0].Name
			cmdDesc = u.AvailableCommandsUpdate.AvailableCommands[0].Description
		}
	}
	for what, got := range map[string]string{"tool title": title, "plan entry": planEntry, "command name": cmdName, "command description": cmdDesc} {
		if got != hostile {
			t.Errorf("%s = %q, want it as sent", what, got)
		}
	}
	reqs := rec.permRequests()
	if len(reqs) != 1 || reqs[0].Options[0].Name != hostile || *reqs[0].ToolCall.Title != hostile {
		t.Errorf("permission request = %+v", reqs)
	}
	if !strings.Contains(reply, `permission={"outcome":{"optionId":"yes","outcome":"selected"}}`) {
		t.Errorf("the agent did not get the chosen option: %q", reply)
	}

	// The client's answers to the agent: its error messages (reported back by the agent
	// after "fserror:") hold no control character.
	var answers []string
	for _, l := range strings.Split(reply, "\n") {
		if m, ok := strings.CutPrefix(l, "fserror:"); ok {
			answers = append(answers, m)
		}
	}
	if len(answers) != 4 {
		t.Fatalf("the agent reported %d errors, want 4: %q", len(answers), reply)
	}
	for _, m := range answers {
		if hasControl(m) {
			t.Errorf("the client answered %q, with a control character", m)
		}
	}
	for i, want := range []string{"outside the agent's workspace", "not absolute", "outside the agent's workspace", "does not implement"} {
		if !strings.Contains(answers[i], want) {
			t.Errorf("answer %d = %q, want it to say %q", i, answers[i], want)
		}
	}

	// Statistics.
	st := c.Stats()
	if st.UnknownUpdates != 1 || st.LastUnknownKind == "" || hasControl(st.LastUnknownKind) || hasControl(st.LastUnknownError) {
		t.Errorf("stats = %+v, want one unknown update, its kind cleaned", st)
	}
	if hasControl(st.LastIgnored) {
		t.Errorf("stats = %+v", st)
	}
}
