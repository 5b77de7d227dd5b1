package anthropicstub

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The npm packages of the Claude agents, at the versions the tests know.
const (
	ClaudeCodeACP  = "@zed-industries/claude-code-acp@0.16.2"
	ClaudeAgentACP = "@agentclientprotocol/claude-agent-acp@0.101.0"
)

// cacheEnv names a folder that replaces the default cache of installed packages.
const cacheEnv = "SIDEKICKS_TEST_NPM_CACHE"

// installTimeout bounds one npm install: a registry that does not answer skips the test.
const installTimeout = 5 * time.Minute

// home and cacheRoot are read when the package loads, before a test isolates HOME (see
// testagents.Env): the packages are installed once for every test run of the machine.
var (
	home, _   = os.UserHomeDir()
	cacheRoot = defaultCacheRoot()
)

func defaultCacheRoot() string {
	if dir := os.Getenv(cacheEnv); dir != "" {
		return dir
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "sidekicks-tests", "npm")
	}
	return filepath.Join(os.TempDir(), "sidekicks-tests-npm")
}

// Install installs the npm package spec (name@version) once into the tests' cache folder
// ($SIDEKICKS_TEST_NPM_CACHE, else the user's cache folder) and returns the path of its
// program bin. It skips the test, saying why, when node or npm is missing or the registry
// cannot be reached; concurrent test processes wait for one another's install.
func Install(t testing.TB, spec, bin string) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipped: %s needs %s, which is not installed (%v)", spec, tool, err)
		}
	}
	dir := filepath.Join(cacheRoot, strings.NewReplacer("/", "+", "@", "_").Replace(spec))
	program := filepath.Join(dir, "node_modules", ".bin", bin)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("npm cache folder: %v", err)
	}
	unlock, err := lock(filepath.Join(dir, ".lock"))
	if err != nil {
		t.Fatalf("locking the npm cache folder: %v", err)
	}
	defer unlock()
	if _, err := os.Stat(program); err == nil {
		return program
	}
	ctx, cancel := context.WithTimeout(context.Background(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-save",
		"--prefix", dir, "--cache", filepath.Join(cacheRoot, ".npm-cache"), spec)
	cmd.Env = append(os.Environ(), "HOME="+home)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("skipped: npm could not install %s (is the registry reachable?): %v\n%s", spec, err, tail(out, 2000))
	}
	if _, err := os.Stat(program); err != nil {
		t.Fatalf("npm installed %s but %s is missing: %v", spec, program, err)
	}
	return program
}

// lock takes an exclusive lock on the file at path, for the installs of other processes.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("flock %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
