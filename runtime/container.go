package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// ErrNoLifecycle is returned when a lifecycle command that is not configured is asked for.
var ErrNoLifecycle = errors.New("no such lifecycle command")

// engineTimeouts bound the engine's commands: each query (inspect, start, ls), and each
// lifecycle command. Zero means no bound.
type engineTimeouts struct {
	query, lifecycle time.Duration
}

// prepareRuntime makes sure what an agent runs in is there before the agent starts: for a
// container, that it exists (created with lifecycle.create when missing) and runs (docker
// start); for a sandbox, that it exists (sbx exec starts a stopped one by itself).
func prepareRuntime(ctx context.Context, a config.Agent, log *AgentLog, limit engineTimeouts) error {
	switch a.Runtime.Type {
	case "container":
		return prepareContainer(ctx, a, log, limit)
	case "sbx":
		return prepareSandbox(ctx, a, log, limit)
	}
	return nil
}

// containerState asks docker whether a container exists and runs, with
// "docker container inspect --format {{.State.Running}} NAME": "true" or "false" when it
// exists; a failure whose message says "no such" means it does not.
func containerState(ctx context.Context, a config.Agent, timeout time.Duration) (exists, running bool, err error) {
	out, errOut, err := engineOutput(ctx, timeout, envList(a.Env), "docker container inspect "+a.Runtime.Container,
		"docker", "container", "inspect", "--format", "{{.State.Running}}", a.Runtime.Container)
	if err != nil {
		var late *EngineTimeoutError
		if !errors.As(err, &late) && strings.Contains(strings.ToLower(errOut), "no such") {
			return false, false, nil
		}
		return false, false, engineError(fmt.Sprintf("checking container %q", a.Runtime.Container), errOut, err)
	}
	switch strings.TrimSpace(out) {
	case "true":
		return true, true, nil
	case "false":
		return true, false, nil
	}
	return false, false, fmt.Errorf("checking container %q: unexpected answer %q", a.Runtime.Container, cleanLine(out))
}

func prepareContainer(ctx context.Context, a config.Agent, log *AgentLog, limit engineTimeouts) error {
	name := a.Runtime.Container
	exists, running, err := containerState(ctx, a, limit.query)
	if err != nil {
		return err
	}
	if !exists {
		if len(a.Runtime.Lifecycle.Create) == 0 {
			return fmt.Errorf("container %q does not exist and no lifecycle.create is set", name)
		}
		log.Printf("sidekicks: container %q does not exist: running lifecycle.create", name)
		if err := runLifecycleWithin(ctx, a, a.Runtime.Lifecycle.Create, log, limit.lifecycle); err != nil {
			return fmt.Errorf("creating container %q: %w", name, err)
		}
		if exists, running, err = containerState(ctx, a, limit.query); err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("container %q still does not exist after lifecycle.create", name)
		}
	}
	if !running {
		log.Printf("sidekicks: starting container %q", name)
		if _, errOut, err := engineOutput(ctx, limit.query, envList(a.Env), "docker start "+name, "docker", "start", name); err != nil {
			return engineError(fmt.Sprintf("starting container %q", name), errOut, err)
		}
	}
	return nil
}

// runLifecycle runs a lifecycle command within DefaultLifecycleTimeout (see
// runLifecycleWithin).
func runLifecycle(ctx context.Context, a config.Agent, argv []string, log *AgentLog) error {
	return runLifecycleWithin(ctx, a, argv, log, DefaultLifecycleTimeout)
}

// runLifecycleWithin runs a lifecycle command in lifecycle.folder with the agent's env, no
// stdin, and its output in the agent's log prefixed "sandbox: ". It is stopped after
// timeout (none when 0), with what it started: its error is then an *EngineTimeoutError.
func runLifecycleWithin(ctx context.Context, a config.Agent, argv []string, log *AgentLog, timeout time.Duration) error {
	dir := a.Runtime.Lifecycle.Folder
	if dir == "" {
		dir = a.Workspace
	}
	line := config.CommandLine(argv)
	log.Printf("sidekicks: running %s in %s", line, dir)
	ctx, cancel, timedOut := withEngineTimeout(ctx, timeout)
	defer cancel()
	err := runLogged(ctx, argv, dir, envList(a.Env), log, "sandbox: ")
	if err != nil && timedOut() {
		engine := "docker"
		if a.Runtime.Type == "sbx" {
			engine = "sbx"
		}
		return &EngineTimeoutError{Engine: engine, Command: line, Lifecycle: lifecycleName(a.Runtime.Lifecycle, argv), After: timeout}
	}
	return err
}

// lifecycleName says which lifecycle command argv is: "create", "stop" or "remove".
func lifecycleName(l config.Lifecycle, argv []string) string {
	switch {
	case slices.Equal(argv, l.Stop):
		return "stop"
	case slices.Equal(argv, l.Remove):
		return "remove"
	}
	return "create"
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
