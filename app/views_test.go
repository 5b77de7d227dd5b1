package app

import (
	"slices"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
)

func lineTexts(lines []window.TextLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"demo-agent":       "demo-agent",
		"/usr/bin/mm":      "/usr/bin/mm",
		"--name=Alice":     "--name=Alice",
		"":                 "''",
		"two words":        "'two words'",
		"it's":             `'it'\''s'`,
		"$HOME":            "'$HOME'",
		"-test.run=^Foo$":  "'-test.run=^Foo$'",
		"héllo":            "héllo",
		"semi;colon":       "'semi;colon'",
		"back`tick`":       "'back`tick`'",
		"star*":            "'star*'",
		"a\nb":             "'a\nb'",
		"percent%and^hat":  "percent%and^hat",
		"comma,plus+at@x:": "comma,plus+at@x:",
	} {
		if got := config.ShellWord(in); got != want {
			t.Errorf("config.ShellWord(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommandLineIsCleaned(t *testing.T) {
	a := config.Agent{Name: "x", Command: "mm", CommandPath: "/bin/mm", Args: []string{"serve", "a b", "\x1b]0;owned\a"}}
	got := commandLine(a)
	if strings.ContainsAny(got, "\x1b\a\n") {
		t.Errorf("commandLine kept control characters: %q", got)
	}
	if !strings.HasPrefix(got, "/bin/mm serve 'a b' ") {
		t.Errorf("commandLine = %q", got)
	}
	a.CommandPath = ""
	if got := commandLine(a); !strings.HasPrefix(got, "mm serve") {
		t.Errorf("without the path found, the command as written: %q", got)
	}
}

func TestCommandLineMasksSecrets(t *testing.T) {
	a := config.Agent{Name: "x", CommandPath: "/usr/bin/docker", Args: []string{"exec", "-i", "-e", "OPENAI_API_KEY=sk-1", "box", "agent", "--token", "ghp 2", "--model=opus"}}
	want := "/usr/bin/docker exec -i -e OPENAI_API_KEY=" + config.Masked + " box agent --token " + config.Masked + " --model=opus"
	if got := commandLine(a); got != want {
		t.Errorf("commandLine = %q; want %q", got, want)
	}
	// Agent status shows it so.
	cfg := &config.Config{Path: "/c.yaml", Agents: []config.Agent{a}}
	got := lineTexts(statusLines(i18n.English, loaded{}, cfg, "/p", agentStates{}, nil))
	if !strings.Contains(got, "  Command: "+want+"\n") || strings.Contains(got, "sk-1") || strings.Contains(got, "ghp") {
		t.Errorf("Agent status shows a secret, or not the command %q:\n%s", want, got)
	}
}

func TestChannelLines(t *testing.T) {
	lang := i18n.English
	cfg := &config.Config{Agents: []config.Agent{
		{Name: "alice", Title: "Alice", Icon: "🦊"},
		{Name: "bob", Title: "Bob\x1b[31m"},
	}}
	ch := store.Channel{ID: 1, Name: "général\x1b[2J", Description: "the\nplace", Members: []string{"alice", "bob", "gone"}}
	states := statesOf(runtime.Event{States: []runtime.AgentState{
		{Name: "alice", State: runtime.Ready, Pid: 42},
		{Name: "bob", State: runtime.Error, StderrTail: []string{"boom"}},
	}})
	lines := channelLines(lang, ch, cfg, states)
	got := lineTexts(lines)
	want := "#général\nthe place\n\nMembers\n  🦊 Alice  @alice — ready, process 42\n  Bob  @bob — error\n  @gone — not in the configuration\n"
	if got != want {
		t.Errorf("channel lines:\n%q\nwant\n%q", got, want)
	}
	if lines[5].Class != window.ClassError || lines[6].Class != window.ClassWarning {
		t.Errorf("classes: bob %v, gone %v", lines[5].Class, lines[6].Class)
	}
	empty := lineTexts(channelLines(i18n.French, store.Channel{Name: "x"}, cfg, states))
	if !strings.Contains(empty, "Membres\n  Pas encore de membre") {
		t.Errorf("a channel without members, in French:\n%s", empty)
	}
}

func TestStatusLines(t *testing.T) {
	lang := i18n.English
	cfg := &config.Config{Path: "/c/sidekicks.yaml", Limits: config.Limits{MaxRunningAgents: 3}, Agents: []config.Agent{
		{Name: "alice", CommandPath: "/bin/a", Source: "/c/sidekicks.yaml"},
		{Name: "helper", Title: "Helper", CommandPath: "/bin/h", Source: "/p/.sidekicks/acp.toml"},
	}}
	cur := loaded{project: "/p/.sidekicks/acp.toml"}
	states := statesOf(runtime.Event{Running: 1, MaxRunning: 3, States: []runtime.AgentState{{Name: "alice", State: runtime.Busy, Pid: 7}}})
	got := lineTexts(statusLines(lang, cur, cfg, "/p", states, nil))
	for _, want := range []string{"Configuration: /c/sidekicks.yaml\n", "Project agents file: /p/.sidekicks/acp.toml\n", "Running agents: 1 of 3 at most\n",
		"alice  @alice\n  Command: /bin/a\n  State: busy, process 7\n", "Helper  @helper\n  Command: /bin/h\n  /p/.sidekicks/acp.toml\n  State: stopped\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("status lacks %q:\n%s", want, got)
		}
	}
	none := lineTexts(statusLines(i18n.French, loaded{}, &config.Config{Path: "/c.yaml"}, "/p", agentStates{}, nil))
	if !strings.Contains(none, "Fichier d'agents du projet : aucun dans /p/.sidekicks\n") || !strings.Contains(none, "Aucun agent n'est configuré.") {
		t.Errorf("status without agents, in French:\n%s", none)
	}
}

// TestMessagesComplete: every text of the application's catalogues has both languages,
// with the same verbs in each.
func TestMessagesComplete(t *testing.T) {
	for _, p := range slices.Concat(catalogue.Problems(msgNone+1), panelCatalogue.Problems(pmsgUnchanged),
		channelCatalogue.Problems(chmsgAddTitle)) {
		t.Error(p)
	}
	if got := catalogue.Text(i18n.Parse("de"), msgReloaded); got != "Configuration reloaded" {
		t.Errorf("an unknown language: %q, want English", got)
	}
}
