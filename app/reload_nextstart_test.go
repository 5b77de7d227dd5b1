package app

import (
	"path/filepath"
	"strings"
	"testing"
)

// A change of how a running agent starts (its env here) is said after the reload: it applies
// at the agent's next start. An agent that does not run is not named.
func TestAppReloadSaysChangesWaitForTheNextStart(t *testing.T) {
	dir := appEnv(t)
	path := filepath.Join(dir, "s.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "")+demoAgentYAML(t, "bob", "Bob", "B", ""))
	h := startApp(t, path, dir)
	startAgent(t, h, "alice")
	writeFile(t, path, "version: 1\nagents:\n"+demoAgentYAML(t, "alice", "Alice", "A", "      LEVEL: \"2\"\n")+
		demoAgentYAML(t, "bob", "Bob", "B", "      LEVEL: \"2\"\n"))
	screen := h.waitText("alice: settings changed; they apply at the next start (Restart in the Agents panel)")
	if strings.Contains(screen, "bob: settings changed") || strings.Contains(screen, "bob, alice") {
		t.Errorf("bob, not running, is named:\n%s", screen)
	}
}
