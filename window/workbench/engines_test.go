package workbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeEngine is the stand-in docker and sbx: it records each call (its folder, then the
// program's name and its arguments, separated by \x1f, one call a line) in
// $FAKE_ENGINE_LOG; says every container runs and every sandbox exists; and runs what
// "exec" is given here, which is how the agents and the workspace's scripts "in the
// container" really run. Anything else (the lifecycle commands) succeeds.
// FAKE_ENGINE_HANG makes "docker container inspect" and "sbx ls" hang, as an engine that
// never answers does.
const fakeEngine = `#!/bin/sh
me=${0##*/}
us=$(printf '\037')
line=$PWD
for a in "$me" "$@"; do line="$line$us$a"; done
printf '%s\n' "$line" >> "$FAKE_ENGINE_LOG"
if [ -n "${FAKE_ENGINE_HANG-}" ] && { [ "$me $1" = "docker container" ] || [ "$me $1" = "sbx ls" ]; }; then exec sleep 3600; fi
case "$me $1" in
"docker container") echo true ;;
"sbx ls") echo sandy ;;
"docker exec"|"sbx exec")
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
exit 0
`

// engines is where the stand-ins record their calls.
type engines struct {
	t   *testing.T
	log string
	off int // how much of the log calls has returned
}

// installEngines puts the stand-in docker and sbx first in PATH.
func installEngines(t *testing.T) *engines {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"docker", "sbx"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(fakeEngine), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := &engines{t: t, log: filepath.Join(dir, "calls")}
	if err := os.WriteFile(e.log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_ENGINE_LOG", e.log)
	return e
}

// call is one recorded call.
type call struct {
	dir  string
	args []string // the program's name, then its arguments
}

// calls returns the calls recorded since the last time. Each stand-in writes its line in
// one write, but a call may be reading while one is being written: only whole lines are
// taken, the rest waits for the next time.
func (e *engines) calls() []call {
	e.t.Helper()
	b, err := os.ReadFile(e.log)
	if err != nil {
		e.t.Fatal(err)
	}
	b = b[e.off:]
	end := strings.LastIndexByte(string(b), '\n')
	if end < 0 {
		return nil
	}
	e.off += end + 1
	var out []call
	for _, line := range strings.Split(string(b[:end]), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\x1f")
		out = append(out, call{dir: f[0], args: f[1:]})
	}
	return out
}

// lifecycleCalls keeps the calls that are not the agent's own exec nor the existence
// checks.
func lifecycleCalls(cs []call) []call {
	var out []call
	for _, c := range cs {
		if len(c.args) > 1 && (c.args[1] == "exec" || c.args[1] == "container" || c.args[1] == "ls") {
			continue
		}
		out = append(out, c)
	}
	return out
}
