package agentstack

import (
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// TestAgentCannotWriteSidekicksOwnFiles runs an agent in the default workspace (the
// configuration's folder, which also holds preferences.json, the project agents file, the
// history and the logs here) that writes Sidekicks' own files directly, through "./" and
// "..", and through links it plants itself: every write is refused, saying which file it
// is, and nothing changes. Its writes to AGENTS.md, skills/** and a protect-listed file
// succeed: protect guards the Files window only.
func TestAgentCannotWriteSidekicksOwnFiles(t *testing.T) {
	l := testagents.NewOwnLayout(t)
	cfg := loadConfig(t, l.WriteConfig(t, testagents.OwnFilesEntry(t, "rogue")))
	db, err := store.DefaultPath(cfg.Path)
	if err != nil {
		t.Fatal(err)
	}
	dbRel, _ := filepath.Rel(l.Dir, db)
	r := newRig(t, cfg, rigOptions{own: OwnFiles(cfg.Path, l.Dir)})
	k := chat.AgentKey("rogue")

	refused := map[string]string{
		"config.yaml":                 "the configuration file in use",
		"./config.yaml":               "the configuration file in use",
		"skills/../config.yaml":       "the configuration file in use",
		"cfg":                         "the configuration file in use",
		"up/sidekicks/config.yaml":    "the configuration file in use",
		"preferences.json":            "the preferences",
		"./prefs":                     "the preferences",
		".sidekicks/acp.toml":         "the project agents file of the folder Sidekicks runs in",
		"./.sidekicks/./acp.toml":     "the project agents file of the folder Sidekicks runs in",
		"proj/acp.toml":               "the project agents file of the folder Sidekicks runs in",
		dbRel:                         "the history database",
		dbRel + "-wal":                "the history database",
		dbRel + ".lock":               "the history database",
		"state/logs/agents/rogue.log": "the logs folder",
		"state/trusted-projects":      "the approvals of project agents files",
	}
	before := map[string]string{}
	for _, p := range []string{"config.yaml", "preferences.json", ".sidekicks/acp.toml", dbRel + "-wal", "state/logs/agents/rogue.log", "state/trusted-projects"} {
		before[p] = l.Read(p)
	}
	cmds := []string{"link cfg config.yaml", "link up ..", "link prefs preferences.json", "link proj .sidekicks"}
	for p := range refused {
		cmds = append(cmds, "write "+p)
	}
	allowed := []string{"AGENTS.md", "skills/web/SKILL.md", "listed.txt"}
	for _, p := range allowed {
		cmds = append(cmds, "write "+p)
	}
	if res := r.turn(k, strings.Join(cmds, "\n")); res.Err != nil || res.StopReason != chat.StopEndTurn {
		t.Fatalf("result %+v", res)
	}
	reply := lastReply(t, r, k)
	for p, why := range refused {
		want := p + ": refused: writing " + l.Dir + "/" + p + ": it is one of Sidekicks' own files (" + why + "), which no agent may write"
		if !strings.Contains(reply, want) {
			t.Errorf("the agent was not told why %s was refused; want %q in:\n%s", p, want, reply)
		}
	}
	for p, content := range before {
		if got := l.Read(p); got != content {
			t.Errorf("%s holds %q, want it unchanged (%q)", p, got, content)
		}
	}
	for _, p := range allowed {
		if got := l.Read(p); got != testagents.OwnFilesContent || !strings.Contains(reply, p+": written") {
			t.Errorf("the agent's own %s holds %q; it said:\n%s", p, got, reply)
		}
	}
}
