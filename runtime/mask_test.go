package runtime

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

func TestTheStartedLineMasksSecrets(t *testing.T) {
	a := testAgentConfig(t, "alice", "normal")
	a.Args = []string{"--api-key", "sk-live-1", "--env", "GITHUB_TOKEN=ghp_2", "--model=opus"}
	s := newTestSupervisor(t, Options{Agents: []config.Agent{a}})
	acquire(t, s, "alice").Release()
	log := s.Logs().Agent("alice")
	waitLog(t, log, "sidekicks: started ")
	want := "sidekicks: started " + a.CommandPath + " --api-key " + config.Masked + " --env GITHUB_TOKEN=" + config.Masked + " --model=opus (pid "
	if !logHas(log, want) {
		t.Errorf("no line with %q in:\n%s", want, logText(log))
	}
	for _, secret := range []string{"sk-live-1", "ghp_2"} {
		if logHas(log, secret) {
			t.Errorf("the log shows %q:\n%s", secret, logText(log))
		}
	}
}
