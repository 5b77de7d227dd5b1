// Package testengine gives tests a real Docker engine: the one `make test` and .ci/run
// start (SIDEKICKS_TEST_DOCKER_HOST), images made there with docker import (these machines
// have no registry) from BusyBox and a static build of Sidekicks, containers named for the
// tests and removed after them, and a second engine of a test's own on a loopback TCP port.
// Only tests import it.
package testengine

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// HostEnv names the engine the tests use, in DOCKER_HOST's syntax; .ci/with-engine (run
// by `make test` and .ci/run) starts one and sets it.
const HostEnv = "SIDEKICKS_TEST_DOCKER_HOST"

// Prefix starts the name of every container the tests make: "sidekicks-test-PID-N".
const Prefix = "sidekicks-test-"

// Engine is a Docker engine the tests reach with DOCKER_HOST=Host.
type Engine struct {
	Host string

	mu     sync.Mutex
	images map[string]string // what an image holds (its key) → its tag
}

var (
	mainOnce   sync.Once
	mainEngine *Engine
	mainWhy    string
)

// Require returns the tests' engine, or skips the test saying why there is none.
func Require(t testing.TB) *Engine {
	t.Helper()
	mainOnce.Do(func() {
		host := os.Getenv(HostEnv)
		if host == "" {
			mainWhy = fmt.Sprintf("no Docker engine for the tests: %s is not set (`make test` and .ci/run start one where dockerd is installed and runs as root)", HostEnv)
			return
		}
		e := &Engine{Host: host}
		if _, err := e.Run(nil, "version", "--format", "{{.Server.Version}}"); err != nil {
			mainWhy = fmt.Sprintf("the Docker engine at %s (%s) does not answer: %v", host, HostEnv, err)
			return
		}
		e.removeLeftovers()
		mainEngine = e
	})
	if mainEngine == nil {
		t.Skip(mainWhy)
	}
	return mainEngine
}

// Env is the environment of a docker command for this engine: the test's, with DOCKER_HOST.
func (e *Engine) Env() []string {
	return append(os.Environ(), "DOCKER_HOST="+e.Host)
}

// Run runs docker against the engine, within two minutes, with stdin when not nil, and
// returns its output trimmed; the error holds what it printed.
func (e *Engine) Run(stdin []byte, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "docker", args...)
	cmd.Env = e.Env()
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("docker %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return strings.TrimSpace(string(out)), nil
}

// Docker runs docker against the engine and fails the test when it fails.
func (e *Engine) Docker(t testing.TB, args ...string) string {
	t.Helper()
	out, err := e.Run(nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var names atomic.Int64

// Name returns a fresh container name, "sidekicks-test-PID-N"; the container of that name,
// whoever made it, is removed at the end of the test.
func (e *Engine) Name(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("%s%d-%d", Prefix, os.Getpid(), names.Add(1))
	t.Cleanup(func() { _, _ = e.Run(nil, "rm", "-f", "-v", name) })
	return name
}

// Container runs a container of image, detached, with no network, named by Name, whose
// main process sleeps; args go to docker run before the image (-v …). It returns the name.
func (e *Engine) Container(t testing.TB, image string, args ...string) string {
	t.Helper()
	name := e.Name(t)
	run := append([]string{"run", "-d", "--name", name, "--network", "none"}, args...)
	e.Docker(t, append(run, image, "sleep", "3600")...)
	return name
}

// Running returns the processes of the container whose command line is cmdline (words
// joined by spaces), zombies left out, as "PID PID ": "" when none runs.
func (e *Engine) Running(t testing.TB, name, cmdline string) string {
	t.Helper()
	return e.Docker(t, "exec", name, "sh", "-c", `for d in /proc/[0-9]*; do
	c=$(tr '\0' ' ' < "$d/cmdline" 2>/dev/null)
	[ "$c" = "$1 " ] || continue
	grep -q '^State:.*Z' "$d/status" 2>/dev/null || printf '%s ' "${d#/proc/}"
done`, "sh", cmdline)
}

// removeLeftovers removes the containers of test binaries that are gone (killed before
// their cleanup ran).
func (e *Engine) removeLeftovers() {
	out, err := e.Run(nil, "ps", "-a", "--filter", "name="+Prefix, "--format", "{{.Names}}")
	if err != nil {
		return
	}
	for _, name := range strings.Fields(out) {
		pid, _, ok := strings.Cut(strings.TrimPrefix(name, Prefix), "-")
		n, err := strconv.Atoi(pid)
		if !ok || err != nil || n == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", n)); err == nil {
			continue // its test binary still runs
		}
		_, _ = e.Run(nil, "rm", "-f", "-v", name)
	}
}

// Image is the image the container tests run: BusyBox (/bin/busybox and a link for every
// applet, /bin/sh among them) and a static build of Sidekicks at /bin/sidekicks, whose
// demo-agent command is the agent. It is made once per engine and test binary, and found
// again by its content on the next run.
func (e *Engine) Image(t testing.TB) string {
	t.Helper()
	return e.ImageWith(t, ImageSpec{Applets: AllApplets, Sidekicks: true})
}

// AllApplets asks ImageSpec for every applet of BusyBox.
var AllApplets = []string{"*"}

// ImageSpec says what an image holds.
type ImageSpec struct {
	// Applets are the BusyBox applets linked in /bin (AllApplets: all of them); none
	// leaves BusyBox out.
	Applets []string
	// Sidekicks adds a static build of Sidekicks at /bin/sidekicks.
	Sidekicks bool
	// Programs are programs of this computer copied in, with the libraries they load
	// (ldd): image path → this computer's path. {"bin/sh": "/bin/dash"} gives a shell that
	// is not BusyBox's, whose applets its sh would otherwise run even without their links.
	Programs map[string]string
	// Scripts are executable files: image path → content.
	Scripts map[string]string
}

// ImageWith is Image with chosen contents: an image that lacks what Sidekicks needs.
func (e *Engine) ImageWith(t testing.TB, spec ImageSpec) string {
	t.Helper()
	files := map[string][]byte{}
	var links []string
	if len(spec.Applets) > 0 {
		bb, err := busybox()
		if err != nil {
			t.Skipf("no BusyBox to make the test image from: %v", err)
		}
		files["bin/busybox"] = bb
		links = spec.Applets
		if len(links) == 1 && links[0] == "*" {
			if links, err = applets(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if spec.Sidekicks {
		bin, err := staticSidekicks()
		if err != nil {
			t.Fatal(err)
		}
		files["bin/sidekicks"] = bin
	}
	for in, host := range spec.Programs {
		if err := addProgram(files, in, host); err != nil {
			t.Skipf("cannot copy %s into the test image: %v", host, err)
		}
	}
	for in, text := range spec.Scripts {
		files[in] = []byte(text)
	}
	archive := imageTar(files, links)
	sum := sha256.Sum256(archive)
	key := hex.EncodeToString(sum[:6])
	tag := "sidekicks-test/image:" + key
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.images[key] != "" {
		return tag
	}
	if _, err := e.Run(nil, "image", "inspect", "--format", "{{.Id}}", tag); err != nil {
		if _, err := e.Run(archive, "import", "-", tag); err != nil {
			t.Fatalf("making the test image: %v", err)
		}
	}
	if e.images == nil {
		e.images = map[string]string{}
	}
	e.images[key] = tag
	return tag
}

// addProgram adds the program at host to files as in, with the libraries it loads at
// their own paths.
func addProgram(files map[string][]byte, in, host string) error {
	data, err := os.ReadFile(host)
	if err != nil {
		return err
	}
	files[in] = data
	out, err := exec.Command("ldd", host).Output()
	if err != nil {
		return nil // static
	}
	for _, line := range strings.Split(string(out), "\n") {
		for _, f := range strings.Fields(line) {
			if !strings.HasPrefix(f, "/") {
				continue
			}
			lib, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			files[strings.TrimPrefix(f, "/")] = lib
		}
	}
	return nil
}

// imageTar is the root of an image: /bin with files and BusyBox links, /tmp, the same
// bytes for the same contents.
func imageTar(files map[string][]byte, links []string) []byte {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	when := time.Unix(0, 0)
	dir := func(name string, mode int64) {
		_ = w.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, ModTime: when})
	}
	dir("bin", 0o755)
	dir("tmp", 0o1777)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	made := map[string]bool{"bin": true, "tmp": true}
	for _, name := range names {
		var parents []string
		for d := filepath.Dir(name); d != "." && !made[d]; d = filepath.Dir(d) {
			parents = append(parents, d)
			made[d] = true
		}
		for i := len(parents) - 1; i >= 0; i-- {
			dir(parents[i], 0o755)
		}
	}
	for _, name := range names {
		data := files[name]
		_ = w.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o755, Size: int64(len(data)), ModTime: when})
		_, _ = w.Write(data)
	}
	for _, a := range links {
		if a == "busybox" || strings.Contains(a, "/") {
			continue
		}
		_ = w.WriteHeader(&tar.Header{Typeflag: tar.TypeSymlink, Name: "bin/" + a, Linkname: "busybox", Mode: 0o777, ModTime: when})
	}
	_ = w.Close()
	return buf.Bytes()
}

// busybox returns the static BusyBox of this machine (Debian's busybox-static).
func busybox() ([]byte, error) {
	path, err := exec.LookPath("busybox")
	if err != nil {
		return nil, err
	}
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return nil, fmt.Errorf("%s is not statically linked (install busybox-static)", path)
		}
	}
	return os.ReadFile(path)
}

// applets lists the applets of this machine's BusyBox.
func applets() ([]string, error) {
	out, err := exec.Command("busybox", "--list").Output()
	if err != nil {
		return nil, fmt.Errorf("busybox --list: %w", err)
	}
	return strings.Fields(string(out)), nil
}

var (
	staticOnce sync.Once
	staticBin  []byte
	staticErr  error
)

// staticSidekicks builds Sidekicks with CGO_ENABLED=0 once per test binary and returns it.
func staticSidekicks() ([]byte, error) {
	staticOnce.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			staticErr = err
			return
		}
		dir, err := os.MkdirTemp("", "sidekicks-static-")
		if err != nil {
			staticErr = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "sidekicks")
		cmd := exec.Command("go", "build", "-ldflags=-s -w", "-o", out, ".")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			staticErr = fmt.Errorf("building a static sidekicks: %v\n%s", err, msg)
			return
		}
		staticBin, staticErr = os.ReadFile(out)
	})
	return staticBin, staticErr
}

// moduleRoot is the folder of go.mod, above the test's folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test's folder")
		}
		dir = parent
	}
}
