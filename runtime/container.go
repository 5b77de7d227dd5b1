package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// ErrNoLifecycle is returned when a lifecycle command that is not configured is asked for.
var ErrNoLifecycle = errors.New("no such lifecycle command")

// prepareRuntime makes sure what an agent runs in is there before the agent starts: for a
// container, that it exists (created with lifecycle.create when missing) and runs (docker
// start); for a sandbox, that it exists (sbx exec starts a stopped one by itself).
func prepareRuntime(ctx context.Context, a config.Agent, log *AgentLog) error {
	switch a.Runtime.Type {
	case "container":
		return prepareContainer(ctx, a, log)
	case "sbx":
		return prepareSandbox(ctx, a, log)
	}
	return nil
}

// containerState asks docker whether a container exists and runs, with
// "docker container inspect --format {{.State.Running}} NAME": "true" or "false" when it
// exists; a failure whose message says "no such" means it does not.
func containerState(ctx context.Context, a config.Agent) (exists, running bool, err error) {
	out, errOut, err := engineOutput(ctx, envList(a.Env),
		"docker", "container", "inspect", "--format", "{{.State.Running}}", a.Runtime.Container)
	if err != nil {
		if strings.Contains(strings.ToLower(errOut), "no such") {
			return false, false, nil
		}
		return false, false, fmt.Errorf("checking container %q: %s: %w", a.Runtime.Container, cleanLine(lastLine(errOut)), err)
	}
	switch strings.TrimSpace(out) {
	case "true":
		return true, true, nil
	case "false":
		return true, false, nil
	}
	return false, false, fmt.Errorf("checking container %q: unexpected answer %q", a.Runtime.Container, cleanLine(out))
}

func prepareContainer(ctx context.Context, a config.Agent, log *AgentLog) error {
	name := a.Runtime.Container
	exists, running, err := containerState(ctx, a)
	if err != nil {
		return err
	}
	if !exists {
		if len(a.Runtime.Lifecycle.Create) == 0 {
			return fmt.Errorf("container %q does not exist and no lifecycle.create is set", name)
		}
		log.Printf("sidekicks: container %q does not exist: running lifecycle.create", name)
		if err := runLifecycle(ctx, a, a.Runtime.Lifecycle.Create, log); err != nil {
			return fmt.Errorf("creating container %q: %w", name, err)
		}
		if exists, running, err = containerState(ctx, a); err != nil {
			return err
		}
		if !exists {
			return fmt.Errorf("container %q still does not exist after lifecycle.create", name)
		}
	}
	if !running {
		log.Printf("sidekicks: starting container %q", name)
		if _, errOut, err := engineOutput(ctx, envList(a.Env), "docker", "start", name); err != nil {
			return fmt.Errorf("starting container %q: %s: %w", name, cleanLine(lastLine(errOut)), err)
		}
	}
	return nil
}

// runLifecycle runs a lifecycle command in lifecycle.folder with the agent's env, no
// stdin, and its output in the agent's log prefixed "sandbox: ".
func runLifecycle(ctx context.Context, a config.Agent, argv []string, log *AgentLog) error {
	dir := a.Runtime.Lifecycle.Folder
	if dir == "" {
		dir = a.Workspace
	}
	log.Printf("sidekicks: running %s in %s", config.CommandLine(argv), dir)
	return runLogged(ctx, argv, dir, envList(a.Env), log, "sandbox: ")
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
