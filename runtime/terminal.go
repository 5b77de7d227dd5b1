package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// TerminalCommand returns the command that opens an interactive shell in an agent's
// workspace, with the agent's env; the screen suspends itself and runs it on the terminal.
//
//   - local: $SHELL (else /bin/sh) started in the workspace;
//   - container: docker exec -it -w WORKSPACEPATH CONTAINER sh;
//   - sbx: sbx exec -it SANDBOX sh -c 'cd -- "$1" && exec sh' sh WORKSPACEPATH — sbx is
//     not known to take a working folder option, so the shell moves there itself, the
//     path passed as an argument rather than written into the shell text.
func TerminalCommand(a config.Agent) *exec.Cmd {
	var cmd *exec.Cmd
	switch a.Runtime.Type {
	case "container":
		cmd = exec.Command("docker", "exec", "-it", "-w", workspacePath(a), a.Runtime.Container, "sh")
	case "sbx":
		cmd = exec.Command("sbx", "exec", "-it", a.Runtime.Sandbox, "sh", "-c", `cd -- "$1" && exec sh`, "sh", workspacePath(a))
	default:
		shell := os.Getenv("SHELL")
		if shell == "" {
			shell = "/bin/sh"
		}
		cmd = exec.Command(shell)
		cmd.Dir = a.Workspace
	}
	cmd.Env = append(os.Environ(), envList(a.Env)...)
	return cmd
}

// CheckEngine asks the engine of a container or sandbox agent whether its container or
// sandbox is there, within timeout (DefaultEngineTimeout when 0): what the terminal needs
// to know before it takes the screen, since "docker exec -it" waits for ever, on a blank
// terminal, for an engine that does not answer (an *EngineTimeoutError then). Nil for a
// local agent.
func CheckEngine(ctx context.Context, a config.Agent, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = DefaultEngineTimeout
	}
	switch a.Runtime.Type {
	case "container":
		exists, _, err := containerState(ctx, a, timeout)
		if err == nil && !exists {
			err = fmt.Errorf("container %q does not exist", a.Runtime.Container)
		}
		return err
	case "sbx":
		exists, err := sandboxExists(ctx, a, timeout)
		if err == nil && !exists {
			err = fmt.Errorf("sandbox %q does not exist", a.Runtime.Sandbox)
		}
		return err
	}
	return nil
}
