package runtime

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// realEngineEnv is the variable that names a real Docker engine for the tests
// (DOCKER_HOST's syntax); .ci/run starts one and sets it.
const realEngineEnv = "SIDEKICKS_TEST_DOCKER_HOST"

// realContainer starts a container of a BusyBox image made here (docker import: there is
// no registry) on the real engine, with the folders /ws (the workspace) and /outside, and
// returns its name and the env that reaches the engine. The container is removed at the
// end of the test.
func realContainer(t *testing.T) (name string, env map[string]string) {
	t.Helper()
	host := os.Getenv(realEngineEnv)
	if host == "" {
		t.Skipf("no real Docker engine: %s is not set (.ci/run starts one)", realEngineEnv)
	}
	busybox, err := exec.LookPath("busybox")
	if err != nil {
		t.Skipf("no busybox to make an image from: %v", err)
	}
	env = map[string]string{"DOCKER_HOST": host}
	docker := func(stdin string, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "docker", args...)
		cmd.Env = append(os.Environ(), "DOCKER_HOST="+host)
		if stdin != "" {
			cmd.Stdin = strings.NewReader(stdin)
		}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	// The image: busybox and its applets, from a tarball.
	dir := t.TempDir()
	script := fmt.Sprintf(`set -e
mkdir -p %[1]s/bin %[1]s/tmp %[1]s/ws %[1]s/outside
cp %[2]q %[1]s/bin/busybox
for a in $(%[2]q --list); do [ "$a" = busybox ] || ln -sf busybox %[1]s/bin/$a; done
tar -C %[1]s -c . | docker import - sidekicks-test/busybox:latest >/dev/null
`, dir, busybox)
	docker("", "version", "--format", "{{.Server.Version}}")
	mk := exec.Command("sh", "-c", script)
	mk.Env = append(os.Environ(), "DOCKER_HOST="+host)
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("making the image: %v\n%s", err, out)
	}
	name = fmt.Sprintf("sidekicks-test-%d", time.Now().UnixNano())
	docker("", "run", "-d", "--name", name, "--network", "none", "sidekicks-test/busybox:latest", "/bin/sleep", "3600")
	t.Cleanup(func() {
		cmd := exec.Command("docker", "rm", "-f", name)
		cmd.Env = append(os.Environ(), "DOCKER_HOST="+host)
		_ = cmd.Run()
	})
	return name, env
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
	run := func(script string) string {
		t.Helper()
		cmd := exec.Command("docker", "exec", "-i", name, "sh", "-c", script)
		cmd.Env = append(os.Environ(), "DOCKER_HOST="+env["DOCKER_HOST"])
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return strings.TrimSpace(string(out))
	}
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
