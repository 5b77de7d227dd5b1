package runtime

import (
	"context"
	"fmt"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// sandboxExists asks "sbx ls -q", which prints one sandbox name per line.
func sandboxExists(ctx context.Context, a config.Agent, timeout time.Duration) (bool, error) {
	out, errOut, err := engineOutput(ctx, timeout, envList(a.Env), "sbx ls", "sbx", "ls", "-q")
	if err != nil {
		return false, engineError("listing sandboxes", errOut, err)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) == a.Runtime.Sandbox {
			return true, nil
		}
	}
	return false, nil
}

func prepareSandbox(ctx context.Context, a config.Agent, log *AgentLog, limit engineTimeouts) error {
	name := a.Runtime.Sandbox
	exists, err := sandboxExists(ctx, a, limit.query)
	if err != nil || exists {
		return err
	}
	if len(a.Runtime.Lifecycle.Create) == 0 {
		return fmt.Errorf("sandbox %q does not exist and no lifecycle.create is set", name)
	}
	log.Printf("sidekicks: sandbox %q does not exist: running lifecycle.create", name)
	if err := runLifecycleWithin(ctx, a, a.Runtime.Lifecycle.Create, log, limit.lifecycle); err != nil {
		return fmt.Errorf("creating sandbox %q: %w", name, err)
	}
	if exists, err = sandboxExists(ctx, a, limit.query); err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("sandbox %q still does not exist after lifecycle.create", name)
	}
	return nil
}
