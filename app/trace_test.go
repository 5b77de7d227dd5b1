package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/store"
)

func TestTraceMessagesComplete(t *testing.T) {
	for _, p := range traceCatalogue.Problems(tmsgCannotWrite) {
		t.Error(p)
	}
}

// statusRow returns the last row of the screen, the status bar, without the spaces around.
func statusRow(screen string) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return strings.TrimSpace(rows[len(rows)-1])
}

// logText returns what the application's log holds.
func logText(t *testing.T, h *appHarness) string {
	t.Helper()
	h.ap.log.Flush()
	data, err := os.ReadFile(h.ap.log.Path())
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A trace file that cannot be written is said on the status bar, in the user's language,
// beside the notice start shows, and in the log; the agents get no trace.
func TestAppSaysAnUnwritableTrace(t *testing.T) {
	dir := appEnv(t)
	t.Setenv(acp.TraceEnv, filepath.Join("no-such-folder", "acp.trace"))
	path := filepath.Join(dir, "sidekicks.yaml")
	writeFile(t, path, "version: 1\nui:\n  language: fr\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", ""))
	markerProject(t, dir)
	var given *acp.Trace
	h := startApp(t, path, dir, func(_ *appHarness, o *appOptions) {
		o.agents = func(cfg *config.Config, ao agentstack.Options, st *store.Store) (Agents, error) {
			given = ao.Trace
			return newAgents(cfg, ao, st)
		}
	})
	want := "Pas de trace ACP : impossible d'écrire no-such-folder/acp.trace (no such file or directory)"
	notice := config.NotAllowedText(i18n.French, 2)
	h.waitScreen("the trace's problem on the status bar", func(s string) bool {
		return strings.HasPrefix(statusRow(s), want+" · "+notice[:20])
	})
	if given != nil {
		t.Error("the agents were given a trace")
	}
	if log := logText(t, h); !strings.Contains(log, want) {
		t.Errorf("the log does not say %q:\n%s", want, log)
	}
}

// A write error stops the trace: the status bar and the log say so, and the agent's turn
// goes on.
func TestAppSaysATraceThatStops(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full on this system")
	}
	dir := appEnv(t)
	t.Setenv(acp.TraceEnv, "/dev/full")
	path, _ := agentWinConfig(t, dir, "")
	var given *acp.Trace
	h := startApp(t, path, dir, func(_ *appHarness, o *appOptions) {
		o.agents = func(cfg *config.Config, ao agentstack.Options, st *store.Store) (Agents, error) {
			given = ao.Trace
			return newAgents(cfg, ao, st)
		}
	})
	if given == nil {
		t.Fatal("the agents were given no trace")
	}
	h.alt('a')
	h.waitText("A Alice", "Agent status")
	h.press(tcell.KeyEnter)
	h.waitTitles("A Alice")
	h.typeText("hello")
	h.press(tcell.KeyEnter)
	want := "The ACP trace stopped: cannot write /dev/full (disk is full)"
	h.waitText(want, "I am Alice, a demo agent", "Type /help to see my commands.")
	if log := logText(t, h); !strings.Contains(log, want) {
		t.Errorf("the log does not say %q:\n%s", want, log)
	}
}
