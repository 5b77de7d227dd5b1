package e2e

import (
	"os"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// TestAgentCannotRewriteTheConfiguration runs Sidekicks on its default configuration,
// started in that configuration's folder, with an agent whose workspace is that folder
// (the default): the agent writes the configuration, the preferences and the project
// agents file directly, through "./" and through a link it plants. Each write is refused
// and the conversation shows why; the files are unchanged. Its write to its own AGENTS.md
// succeeds.
func TestAgentCannotRewriteTheConfiguration(t *testing.T) {
	l := testagents.NewOwnLayout(t)
	l.WriteConfig(t, testagents.OwnFilesEntry(t, "rogue"))
	env := append(os.Environ(), "LANG=C.UTF-8")

	term := startTerminal(t, env, l.Dir, 160, 45, binary)
	term.waitFor("No window open", appWait)
	// Sidekicks remembers the file it opened in the preferences as it starts.
	before := map[string]string{}
	for _, p := range []string{"config.yaml", "preferences.json", ".sidekicks/acp.toml"} {
		before[p] = l.Read(p)
	}

	term.keys("M-a")
	term.waitFor("Agent status", appWait)
	term.keys("Enter")
	waitFocus(t, term, "rogue")
	term.typeText("link cfg config.yaml; write ./config.yaml; write cfg; write preferences.json; write .sidekicks/acp.toml; write AGENTS.md")
	term.keys("Enter")
	term.waitFor("AGENTS.md: written", appWait)
	screen := term.waitFor("cfg: refused:", appWait)
	for _, want := range []string{"./config.yaml: refused:", "preferences.json: refused:", ".sidekicks/acp.toml: refused:", "one of Sidekicks' own files"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	for p, content := range before {
		if got := l.Read(p); got != content {
			t.Errorf("%s holds %q, want it unchanged (%q)", p, got, content)
		}
	}
	if got := l.Read("AGENTS.md"); got != testagents.OwnFilesContent {
		t.Errorf("AGENTS.md holds %q", got)
	}
	term.keys("M-x")
	if code := term.waitExit(appWait); code != 0 {
		t.Fatalf("exit status %d; the screen shows:\n%s", code, term.screen())
	}
}
