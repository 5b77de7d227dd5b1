package agentstack

import (
	"fmt"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// A start that failed because the engine did not answer is said in the user's language,
// wrapped as the supervisor wraps it, with the engine's address cleaned.
func TestDescribeEngineTimeout(t *testing.T) {
	late := &runtime.EngineTimeoutError{Engine: "docker", Address: "ssh://me@build\x1b[2Jbox", Command: "docker container inspect box", After: 30 * time.Second}
	err := fmt.Errorf("starting agent %q: %w", "alice", fmt.Errorf("checking container %q: %w", "box", late))
	for lang, want := range map[i18n.Lang]string{
		i18n.English: "the Docker engine at ssh://me@buildbox did not answer within 30 s (docker container inspect box)",
		i18n.French:  "le moteur Docker à ssh://me@buildbox n'a pas répondu en 30 s (docker container inspect box)",
	} {
		if got := DescribeError(err, lang); got != want {
			t.Errorf("%s: %q\nwant %q", lang, got, want)
		}
	}
}
