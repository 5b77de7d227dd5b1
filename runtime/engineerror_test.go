package runtime

import (
	"context"
	"errors"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// With no docker on PATH, the check of a container says so once, without an empty part
// where the engine's stderr would be.
func TestContainerCheckWithoutDocker(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	a := config.Agent{Name: "alice", Runtime: config.Runtime{Type: "container", Container: "x"}}
	_, _, err := containerState(context.Background(), a, 5*time.Second)
	if !errors.Is(err, ErrProgramNotFound) {
		t.Fatalf("err %v, want one wrapping ErrProgramNotFound", err)
	}
	if got, want := err.Error(), `checking container "x": docker: program not found`; got != want {
		t.Errorf("err %q, want %q", got, want)
	}
}
