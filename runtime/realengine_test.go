package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/testengine"
)

// realContainer starts a container of the tests' image (BusyBox and a static Sidekicks,
// see testengine) on the real engine, with the folders /ws (the workspace) and /outside,
// and returns its name and the env that reaches the engine. The container is removed at
// the end of the test.
func realContainer(t *testing.T) (name string, env map[string]string) {
	t.Helper()
	e := testengine.Require(t)
	name = e.Container(t, e.Image(t))
	env = map[string]string{"DOCKER_HOST": e.Host}
	inContainer(t, name, env, "mkdir -p /ws /outside")
	return name, env
}

// inContainer runs a shell script in the container of realContainer and returns its
// output, trimmed; it fails the test when the script fails.
func inContainer(t *testing.T, name string, env map[string]string, script string) string {
	t.Helper()
	cmd := exec.Command("docker", "exec", "-i", name, "sh", "-c", script)
	cmd.Env = append(os.Environ(), "DOCKER_HOST="+env["DOCKER_HOST"])
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return strings.TrimSpace(string(out))
}

// The planted-link attack of TestExecWriteGoesThroughNoPlantedLink, inside a real
// container: process ids there are small and go up by one, so an agent can plant a link
// for every name the old script would have used next.
func TestRealContainerWriteGoesThroughNoPlantedLink(t *testing.T) {
	name, env := realContainer(t)
	// Each ln is a process of its own: the links are for the ids that come after the 2,000
	// the planting itself takes.
	plant := `echo secret > /outside/secret
echo hello > /ws/notes.txt
i=$(($$ + 2001))
end=$(($$ + 4000))
while [ $i -le $end ]; do ln -s /outside/secret /ws/.notes.txt.$i.sidekicks-tmp; i=$((i+1)); done`
	run := func(script string) string { t.Helper(); return inContainer(t, name, env, script) }
	run(plant)
	w := NewContainerWorkspace(name, "/ws", env, nil)
	ctx := context.Background()
	for i := range 3 {
		if err := w.WriteFile(ctx, "notes.txt", []byte(fmt.Sprintf("written %d", i))); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if got := run("cat /outside/secret"); got != "secret" {
		t.Errorf("the file outside the workspace now holds %q", got)
	}
	if got := run("[ -f /ws/notes.txt ] && [ ! -L /ws/notes.txt ] && cat /ws/notes.txt"); got != "written 2" {
		t.Errorf("notes.txt holds %q", got)
	}
	data, err := w.ReadFile(ctx, "notes.txt", 1<<20)
	if err != nil || string(data) != "written 2" {
		t.Errorf("reading it back: %q, %v", data, err)
	}
}

// answered runs a read of the real container and fails the test when no answer comes
// within the deadline (the read is then stopped, and its error is the context's); it
// returns the read's answer and how long it took.
func answered(t *testing.T, what string, within time.Duration, read func(ctx context.Context) ([]byte, error)) ([]byte, error, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	start := time.Now()
	data, err := read(ctx)
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Errorf("%s: no answer within %v (%v)", what, within, err)
		return nil, ctx.Err(), took
	}
	return data, err, took
}

// Reads from a real container (ReadFile with a limit, ReadLines with a line and a count):
// a 1 GiB sparse file, read three times at once, is refused as too large by its size,
// before any of it is copied, and takes this side next to no memory; a named pipe nobody
// writes to and a device made with mknod in the container (like /dev/zero: it never ends)
// are refused at once; a normal file and a range of its lines are served.
func TestRealContainerReadsAreBounded(t *testing.T) {
	name, env := realContainer(t)
	inContainer(t, name, env, `set -e
truncate -s 1073741824 /ws/huge.bin
mkfifo /ws/pipe
mknod /ws/zero c 1 5
printf 'one\ntwo\nthree\n' > /ws/lines.txt`)
	w := NewContainerWorkspace(name, "/ws", env, nil)
	const limit = 8 << 20 // what one fs/read_text_file answer may carry

	// The three reads copy none of the file: they may allocate far less than one limit.
	alloc := allocated(func() {
		var wg sync.WaitGroup
		for i := range 3 {
			wg.Go(func() {
				_, err, took := answered(t, fmt.Sprintf("read %d of huge.bin", i+1), 10*time.Second, func(ctx context.Context) ([]byte, error) {
					return w.ReadFile(ctx, "huge.bin", limit)
				})
				t.Logf("read %d of huge.bin refused in %v", i+1, took.Round(time.Millisecond))
				var large *TooLargeError
				switch {
				case !errors.As(err, &large):
					t.Errorf("read %d of huge.bin: err = %v, want a *TooLargeError", i+1, err)
				case large.Size != 1<<30:
					t.Errorf("read %d of huge.bin: refused with the size %d, not the file's (1 GiB): it was not refused by its size", i+1, large.Size)
				}
			})
		}
		wg.Wait()
	})
	t.Logf("the three reads of huge.bin allocated %d KiB", alloc>>10)
	if alloc > limit/2 {
		t.Errorf("the three reads of huge.bin allocated %d KiB", alloc>>10)
	}
	// Lines are cut in the container: this side gets at most one byte over the limit, and
	// stops there. Its buffer grows on the way (a few times the limit allocated, more with
	// the race detector), never near the file's size: at most an eighth of it.
	alloc = allocated(func() {
		_, err, took := answered(t, "lines of huge.bin", 10*time.Second, func(ctx context.Context) ([]byte, error) {
			return w.ReadLines(ctx, "huge.bin", 1, 10, limit)
		})
		t.Logf("the lines of huge.bin refused in %v", took.Round(time.Millisecond))
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("the lines of huge.bin: err = %v, want ErrTooLarge", err)
		}
	})
	t.Logf("the lines of huge.bin allocated %d KiB", alloc>>10)
	if alloc > (1<<30)/8 {
		t.Errorf("the lines of huge.bin allocated %d MiB", alloc>>20)
	}

	for _, p := range []string{"pipe", "zero"} {
		_, err, took := answered(t, "reading "+p, 5*time.Second, func(ctx context.Context) ([]byte, error) {
			return w.ReadFile(ctx, p, 1<<20)
		})
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("reading %s: err = %v, want ErrNotRegular", p, err)
		}
		_, errLines, tookLines := answered(t, "the lines of "+p, 5*time.Second, func(ctx context.Context) ([]byte, error) {
			return w.ReadLines(ctx, p, 1, 1, 1<<20)
		})
		if !errors.Is(errLines, ErrNotRegular) {
			t.Errorf("the lines of %s: err = %v, want ErrNotRegular", p, errLines)
		}
		t.Logf("%s refused in %v, its lines in %v", p, took.Round(time.Millisecond), tookLines.Round(time.Millisecond))
	}

	data, err, _ := answered(t, "reading lines.txt", 5*time.Second, func(ctx context.Context) ([]byte, error) {
		return w.ReadFile(ctx, "lines.txt", 1<<20)
	})
	if err != nil || string(data) != "one\ntwo\nthree\n" {
		t.Errorf("reading lines.txt: %q, %v", data, err)
	}
	for _, c := range []struct {
		line, count int
		want        string
	}{{2, 1, "two\n"}, {2, -1, "two\nthree\n"}, {1, 2, "one\ntwo\n"}, {4, 1, ""}} {
		data, err, _ := answered(t, "the lines of lines.txt", 5*time.Second, func(ctx context.Context) ([]byte, error) {
			return w.ReadLines(ctx, "lines.txt", c.line, c.count, 1<<20)
		})
		if err != nil || string(data) != c.want {
			t.Errorf("lines %d+%d of lines.txt = %q, %v; want %q", c.line, c.count, data, err, c.want)
		}
	}
}

// allocated returns the bytes the process allocated while f ran.
func allocated(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
