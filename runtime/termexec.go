package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/guard"
)

// An agent's terminal command (ACP terminal/create) runs where the agent runs, through the
// same engine as its files: a process group in the workspace for a local agent, "docker
// exec -w CWD" in its container, "sbx exec" in its sandbox. The command is a shell
// command line (the agents send "ls -la | head" as one text): the client's sh runs it with
// bash when the place has bash, else sh, its arguments appended as quoted words. The same
// small script starts it everywhere (commandScript): it moves to the folder, reads the
// variables to set from its stdin (so that their values never sit on a command line),
// joins stderr to stdout, and runs the command.

// TerminalEnvTag is the variable every command of an agent's terminal carries, with a
// value of its own: what finds them inside a container or sandbox to kill them, since
// killing "docker exec" on this computer leaves its command running.
const TerminalEnvTag = "SIDEKICKS_TERMINAL"

// commandScript is the script "sh -c" runs: $1 the workspace, $2 the folder, $3 the command
// line, then its arguments; the variables come on stdin as "export NAME='value'" lines. The
// folder, checked lexically by the client, must also lead inside the workspace once its
// symbolic links are resolved.
const commandScript = `exec 2>&1
root=$(cd -- "$1" && pwd -P) || exit 126
root=${root%/}
cd -- "$2" || exit 126
case "$(pwd -P)/" in
"$root"/*) ;;
*) echo "sidekicks: $2 leads outside the workspace $1; the command does not run"; exit 126 ;;
esac
line=$3
shift 3
eval "$(cat)" || exit 126
if command -v bash >/dev/null 2>&1; then exec bash -c "$line" bash "$@"; fi
exec sh -c "$line" sh "$@"`

// killScript kills, with the signal $2, every process that carries TerminalEnvTag=$1: it
// runs inside the container or sandbox.
const killScript = `for d in /proc/[0-9]*; do
	p=${d#/proc/}
	[ "$p" = "$$" ] && continue
	if tr '\0' '\n' < "$d/environ" 2>/dev/null | grep -qxF "` + TerminalEnvTag + `=$1"; then kill -"$2" "$p" 2>/dev/null; fi
done
exit 0`

// TerminalCommandSpec is a command an agent asked to run.
type TerminalCommandSpec struct {
	Command string   // a shell command line
	Args    []string // words appended to it, quoted
	Env     [][2]string
	Dir     string // absolute, as the agent sees it, inside the workspace (checked by the caller)
}

// envName is what a variable's name must be for the shell to set it.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// TerminalCommandArgs is the command line that runs spec for agent a (what the engine's
// stand-in sees in the tests), and what its stdin must carry: the variables to set.
func TerminalCommandArgs(a config.Agent, spec TerminalCommandSpec, tag string) (argv []string, stdin string, err error) {
	var b strings.Builder
	for _, kv := range append(spec.Env, [2]string{TerminalEnvTag, tag}) {
		if !envName.MatchString(kv[0]) {
			return nil, "", fmt.Errorf("the variable name %q is not one a shell can set", kv[0])
		}
		if strings.IndexByte(kv[1], 0) >= 0 {
			return nil, "", fmt.Errorf("the value of %s holds a NUL byte", kv[0])
		}
		b.WriteString("export " + kv[0] + "=" + shellQuote(kv[1]) + "\n")
	}
	if strings.IndexByte(spec.Command, 0) >= 0 {
		return nil, "", errors.New("the command holds a NUL byte")
	}
	line := spec.Command
	if len(spec.Args) > 0 {
		line += ` "$@"`
	}
	tail := append([]string{"sh", "-c", commandScript, "sh", workspacePath(a), spec.Dir, line}, spec.Args...)
	switch a.Runtime.Type {
	case "container":
		argv = append([]string{"docker", "exec", "-i", "-w", spec.Dir, a.Runtime.Container}, tail...)
	case "sbx":
		argv = append([]string{"sbx", "exec", "-i", a.Runtime.Sandbox}, tail...)
	default:
		argv = tail
	}
	return argv, b.String(), nil
}

// shellQuote quotes s for sh: between single quotes, each of its own written '\”.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// AgentCommand is a command an agent's terminal runs.
type AgentCommand struct {
	proc  *Process
	out   *pipeEnd
	agent config.Agent
	tag   string
}

// StartAgentCommand starts spec for agent a where a runs, with a's env (and only the few
// variables MinimalEnviron keeps of Sidekicks' own for an agent of a project agents file).
// It dies with Sidekicks, and is recorded for the next one, as an agent's process is.
// What the engine's client says on its stderr (a container that is gone) goes to log.
func StartAgentCommand(a config.Agent, spec TerminalCommandSpec, log *AgentLog, goStart guard.Go) (*AgentCommand, error) {
	tag := newProcessTag()
	argv, vars, err := TerminalCommandArgs(a, spec, tag)
	if err != nil {
		return nil, err
	}
	dir := spec.Dir
	if a.Runtime.Type == "container" || a.Runtime.Type == "sbx" {
		dir = a.Workspace // the engine's client runs here; spec.Dir is inside
	}
	p, err := StartProcess(ProcessOptions{
		Path: argv[0], Args: argv[1:], Dir: dir, Env: envList(a.Env), MinimalEnv: a.Project,
		// Kill sends SIGTERM at once (stdin is closed already), SIGKILL 2 s later.
		Grace: StopGrace{AfterStdin: time.Nanosecond, AfterTerm: 2 * time.Second, Drain: time.Second},
		Log:   log, Name: a.Name + " terminal", Go: goStart,
	})
	if err != nil {
		return nil, err
	}
	c := &AgentCommand{proc: p, out: p.stdout, agent: a, tag: tag}
	go func() { // the variables, then the end of stdin: the command reads nothing else
		_, _ = io.WriteString(p.Stdin, vars)
		_ = p.Stdin.Close()
	}()
	return c, nil
}

// Output is what the command prints, stdout and stderr together; it ends once the command
// has ended and its output is read.
func (c *AgentCommand) Output() io.Reader { return c.out }

// Wait waits for the command to end; code is -1 when a signal ended it (named as "SIGKILL").
func (c *AgentCommand) Wait() (code int, signal string) {
	st := c.proc.Wait()
	if st.Signal != "" {
		return -1, signalName(c.proc)
	}
	return st.Code, ""
}

// signalName names the signal that ended p, as ACP expects ("SIGTERM").
func signalName(p *Process) string {
	if st := p.cmd.ProcessState; st != nil {
		if ws, ok := st.Sys().(interface{ Signal() unix.Signal }); ok {
			if name := unix.SignalName(ws.Signal()); name != "" {
				return name
			}
		}
	}
	return "SIGKILL"
}

// Kill ends the command and everything it started, and returns once they are gone: in a
// container or sandbox, every process there that carries the command's tag gets SIGKILL
// (bounded by DefaultExecTimeout); here, its process tree gets SIGTERM, then SIGKILL 2
// seconds later.
func (c *AgentCommand) Kill() {
	if c.agent.Runtime.Type == "container" || c.agent.Runtime.Type == "sbx" {
		ctx, cancel := context.WithTimeout(context.Background(), DefaultExecTimeout)
		_, _, _ = engineOutput(ctx, DefaultExecTimeout, envList(c.agent.Env), "killing a terminal command", killArgs(c.agent, c.tag)...)
		cancel()
	}
	c.proc.Stop()
}

// killArgs is the command line that kills, inside a's container or sandbox, the processes
// that carry tag.
func killArgs(a config.Agent, tag string) []string {
	tail := []string{"sh", "-c", killScript, "sh", tag, "KILL"}
	if a.Runtime.Type == "container" {
		return append([]string{"docker", "exec", a.Runtime.Container}, tail...)
	}
	return append([]string{"sbx", "exec", a.Runtime.Sandbox}, tail...)
}
