package runtime

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// An agent whose command is a docker exec ("docker exec -i box agent …") runs inside the
// container, where the signals Sidekicks sends to the docker client never arrive: docker
// exec forwards none, and what the agent started there would outlive it. So the agent's
// tag (ProcessTagEnv) is passed into the container (-e SIDEKICKS_PROCESS, its value from
// the client's environment), whatever the agent starts there inherits it, and once the
// client has ended, every process of the container that carries the tag is stopped from
// inside: SIGTERM, then SIGKILL to those still there after StopGrace.AfterTerm. (On this
// computer's engine, run by root, the processes of the container are also this computer's:
// the tag lets the stop of the agent's tree find them there first.)

// dockerExec is what an agent's command says of the docker exec it is.
type dockerExec struct {
	at        int    // the index in args of "exec", after which its options go
	container string // the container it runs in
}

// dockerGlobalValued are docker's options before the command that take a value.
var dockerGlobalValued = map[string]bool{
	"-H": true, "--host": true, "-c": true, "--context": true, "--config": true,
	"-l": true, "--log-level": true, "--tlscacert": true, "--tlscert": true, "--tlskey": true,
}

// dockerExecValued are docker exec's options that take a value.
var dockerExecValued = map[string]bool{
	"-e": true, "--env": true, "--env-file": true, "-u": true, "--user": true,
	"-w": true, "--workdir": true, "--detach-keys": true,
}

// dockerExecOf reads an agent's command as a docker exec: "docker [global options] exec
// [options] CONTAINER …" or "docker container exec …"; ok is false for anything else, or an
// option it does not know (nothing is then changed).
func dockerExecOf(path string, args []string) (d dockerExec, ok bool) {
	if filepath.Base(path) != "docker" {
		return d, false
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "exec":
		case a == "container" && i+1 < len(args) && args[i+1] == "exec":
			i++
		case strings.HasPrefix(a, "--") && strings.Contains(a, "="):
			continue
		case dockerGlobalValued[a]:
			i++
			continue
		case a == "-D" || a == "--debug" || a == "--tls" || a == "--tlsverify":
			continue
		default:
			return d, false
		}
		break
	}
	if i >= len(args) {
		return d, false
	}
	d.at = i
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		switch {
		case !strings.HasPrefix(a, "-") || a == "-":
			d.container = a
			return d, a != "-"
		case strings.HasPrefix(a, "--"):
			if !strings.Contains(a, "=") && dockerExecValued[a] {
				j++
			}
		case len(a) > 2 && strings.Contains(a, "="):
			// -e=NAME
		case dockerExecValued["-"+a[len(a)-1:]]:
			j++ // -e NAME, or a group that ends with it: -ie NAME
		}
	}
	return d, false
}

// agentArgs returns the arguments an agent is started with: its args, with
// "-e SIDEKICKS_PROCESS" added after "exec" when it is a docker exec.
func agentArgs(a config.Agent) []string {
	d, ok := dockerExecOf(a.CommandPath, a.Args)
	if !ok {
		return a.Args
	}
	out := make([]string, 0, len(a.Args)+2)
	out = append(out, a.Args[:d.at+1]...)
	out = append(out, "-e", ProcessTagEnv)
	return append(out, a.Args[d.at+1:]...)
}

// stopInsideScript stops, inside a container, every process whose environment holds
// SIDEKICKS_PROCESS=TAG: SIGTERM, then SIGKILL after TENTHS tenths of a second to those still
// there. It prints the processes it found. Run as: sh -c stopInsideScript sidekicks TAG
// TENTHS. One line, so that it shows as one in a trace or a log:
//
//	tr and grep are there, else it says which is missing (exit 72);
//	pids() — the processes of the tag: /proc/N/environ holds SIDEKICKS_PROCESS=TAG exactly
//	none: done; else print them, SIGTERM them, look again every tenth of a second
//	(sleep 1 where sleep takes whole seconds only), SIGKILL those left after TENTHS.
const stopInsideScript = `tag=$1 tenths=$2; ` +
	`for c in tr grep; do command -v "$c" >/dev/null 2>&1 || { echo "the image lacks $c" >&2; exit 72; }; done; ` +
	`pids() { for d in /proc/[0-9]*; do { tr '\0' '\n' < "$d/environ"; } 2>/dev/null | grep -qxF "SIDEKICKS_PROCESS=$tag" && printf '%s ' "${d#/proc/}"; done; }; ` +
	`p=$(pids); [ -n "$p" ] || exit 0; printf '%s\n' "$p"; kill -TERM $p 2>/dev/null; ` +
	`i=0; while [ "$i" -lt "$tenths" ]; do sleep 0.1 2>/dev/null || sleep 1; p=$(pids); [ -n "$p" ] || exit 0; i=$((i + 1)); done; ` +
	`kill -KILL $p 2>/dev/null; exit 0`

// stopInside stops what an agent that was a docker exec left running in its container,
// once its docker client has ended: every process there that carries its tag. It runs
// with the agent's env (its DOCKER_HOST), bounded by timeout; the agent's log says what it
// stopped, or why it could not look.
func stopInside(a config.Agent, p *Process, grace StopGrace, timeout time.Duration, log *AgentLog) {
	d, ok := dockerExecOf(a.CommandPath, a.Args)
	if !ok || p == nil || p.tag == "" {
		return
	}
	tenths := strconv.Itoa(max(int(grace.AfterTerm/(100*time.Millisecond)), 1))
	out, errOut, err := engineOutput(context.Background(), timeout, envList(a.Env), "docker exec "+d.container,
		"docker", "exec", d.container, "sh", "-c", stopInsideScript, "sidekicks", p.tag, tenths)
	switch {
	case err != nil && strings.Contains(errOut, "is not running"), err != nil && strings.Contains(strings.ToLower(errOut), "no such container"):
		// Stopped or removed: nothing of the agent runs there any more.
	case err != nil:
		log.Printf("sidekicks: could not stop what the agent left in container %q: %v", d.container, engineError("docker exec", errOut, err))
	case strings.TrimSpace(out) != "":
		log.Printf("sidekicks: stopped in container %q what the agent left running: process %s", d.container, cleanLine(strings.Join(strings.Fields(out), ", ")))
	}
}
