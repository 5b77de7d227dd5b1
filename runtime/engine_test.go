package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The stand-in docker and sbx: they record every call (working folder, the value of
// SIDEKICKS_TEST_VAR, then the program's name and its arguments, NUL-separated, the call
// ended by "\x1e\n") to $FAKE_ENGINE_LOG and play the engine from the files of
// $FAKE_ENGINE_STATE: one file per container or sandbox holding "running" or "stopped".
// "exec" runs the rest of the command here, which is how the workspace script and agents
// "inside" the container really run. Creation ("docker run", "docker compose", "sbx env")
// makes $FAKE_CREATE_NAME in state $FAKE_CREATE_STATE (default running) and prints where
// its stdin comes from; FAKE_CREATE_FAIL makes it fail with that message, FAKE_CREATE_NOOP
// succeed without creating anything. FAKE_ENGINE_DOWN makes every call fail as an
// unreachable engine does; FAKE_ENGINE_HANG="PROGRAM SUBCOMMAND" ("sbx ls", "docker start",
// "docker run"…) makes that call hang as an engine that never answers does, its process id
// written to $FAKE_ENGINE_LOG.hung. FAKE_CREATE_SLEEP makes creation print
// "slow create PID" and sleep that long first.
const fakeEngine = `#!/bin/sh
me=${0##*/}
{ printf '%s\0' "$PWD" "${SIDEKICKS_TEST_VAR-}" "$me" "$@"; printf '\036\n'; } >> "$FAKE_ENGINE_LOG"
state=$FAKE_ENGINE_STATE
if [ -n "${FAKE_ENGINE_DOWN-}" ]; then echo "Cannot connect to the engine" >&2; exit 1; fi
if [ -n "${FAKE_ENGINE_HANG-}" ] && [ "$FAKE_ENGINE_HANG" = "$me $1" ]; then echo $$ >> "$FAKE_ENGINE_LOG.hung"; exec sleep 3600; fi
create() {
	if [ -e /proc/$$/fd/0 ]; then echo "stdin $(readlink /proc/$$/fd/0)"; fi
	if [ -n "${FAKE_CREATE_FAIL-}" ]; then echo "$FAKE_CREATE_FAIL" >&2; exit 1; fi
	if [ -n "${FAKE_CREATE_SLEEP-}" ]; then echo "slow create $$"; sleep "$FAKE_CREATE_SLEEP"; fi
	echo "creating $1"
	[ -n "${FAKE_CREATE_NOOP-}" ] || echo "${FAKE_CREATE_STATE:-running}" > "$state/$1"
	exit 0
}
if [ "$me" = docker ]; then
	case $1 in
	container)
		for name; do :; done
		if [ ! -f "$state/$name" ]; then echo "Error: No such container: $name" >&2; exit 1; fi
		if [ "$(cat "$state/$name")" = running ]; then echo true; else echo false; fi
		;;
	start)
		[ -f "$state/$2" ] || { echo "Error: No such container: $2" >&2; exit 1; }
		echo running > "$state/$2"; echo "$2"
		;;
	run|compose)
		create "${FAKE_CREATE_NAME:?}"
		;;
	stop) echo stopped > "$state/$2" ;;
	rm) rm -f "$state/$2" ;;
	exec)
		shift
		while :; do
			case $1 in
			-w|-e) shift 2 ;;
			-*) shift ;;
			*) break ;;
			esac
		done
		shift
		exec "$@"
		;;
	*) echo "unexpected docker call: $*" >&2; exit 2 ;;
	esac
	exit 0
fi
case $1 in
ls) [ "$2" = -q ] || exit 2; for f in "$state"/*; do [ -f "$f" ] && echo "${f##*/}"; done; exit 0 ;;
env) [ "$2" = create ] && create "${FAKE_CREATE_NAME:?}"; [ "$2" = rm ] && rm -f "$state/${FAKE_CREATE_NAME:?}"; exit 0 ;;
stop) echo stopped > "$state/$2"; exit 0 ;;
rm) rm -f "$state/$2"; exit 0 ;;
exec)
	shift
	while :; do
		case $1 in
		-w|-e) shift 2 ;;
		-*) shift ;;
		*) break ;;
		esac
	done
	shift
	exec "$@"
	;;
esac
echo "unexpected sbx call: $*" >&2
exit 2
`

// fakeEngines installs the stand-ins first in PATH and returns where they record.
type fakeEngines struct {
	t     *testing.T
	bin   string
	log   string
	state string
}

func newFakeEngines(t *testing.T) *fakeEngines {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	f := &fakeEngines{t: t, bin: bin, log: filepath.Join(dir, "calls"), state: filepath.Join(dir, "state")}
	for _, d := range []string{bin, f.state} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"docker", "sbx"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(fakeEngine), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(f.log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_ENGINE_LOG", f.log)
	t.Setenv("FAKE_ENGINE_STATE", f.state)
	t.Setenv("SIDEKICKS_TEST_VAR", "")
	return f
}

// set says whether a container or sandbox exists: "running", "stopped", or "" (missing).
func (f *fakeEngines) set(name, state string) {
	f.t.Helper()
	p := filepath.Join(f.state, name)
	if state == "" {
		_ = os.Remove(p)
		return
	}
	if err := os.WriteFile(p, []byte(state+"\n"), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fakeEngines) get(name string) string {
	b, err := os.ReadFile(filepath.Join(f.state, name))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// engineCall is one recorded call.
type engineCall struct {
	Dir  string   // the working folder
	Var  string   // SIDEKICKS_TEST_VAR as the call saw it
	Args []string // the program's name, then its arguments
}

// calls returns the calls recorded so far and forgets them.
func (f *fakeEngines) calls() []engineCall {
	f.t.Helper()
	b, err := os.ReadFile(f.log)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(f.log, nil, 0o644); err != nil {
		f.t.Fatal(err)
	}
	var out []engineCall
	for _, rec := range bytes.Split(b, []byte("\x1e\n")) {
		if len(rec) == 0 {
			continue
		}
		fields := strings.Split(strings.TrimSuffix(string(rec), "\x00"), "\x00")
		if len(fields) < 3 {
			f.t.Fatalf("bad record %q", rec)
		}
		out = append(out, engineCall{Dir: fields[0], Var: fields[1], Args: fields[2:]})
	}
	return out
}

// hung returns the process ids of the calls FAKE_ENGINE_HANG held.
func (f *fakeEngines) hung() []int {
	f.t.Helper()
	b, err := os.ReadFile(f.log + ".hung")
	if err != nil && !os.IsNotExist(err) {
		f.t.Fatal(err)
	}
	var pids []int
	for _, field := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(field)
		if err != nil {
			f.t.Fatalf("bad pid %q", field)
		}
		pids = append(pids, pid)
	}
	return pids
}

// argsOf lists the arguments of calls, for comparing with what the spec says.
func argsOf(calls []engineCall) [][]string {
	var out [][]string
	for _, c := range calls {
		out = append(out, c.Args)
	}
	return out
}
