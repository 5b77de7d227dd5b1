package testengine

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// StartSecond starts a Docker engine of the test's own, listening on a loopback TCP port,
// with its own folders and the storage and network settings of the tests' engine, and
// stops it at the end of the test. It skips the test, saying why, where no engine can be
// started (no dockerd, not root).
func StartSecond(t testing.TB) *Engine {
	t.Helper()
	dockerd, err := exec.LookPath("dockerd")
	if err != nil {
		t.Skipf("no second Docker engine: dockerd is not installed (%v)", err)
	}
	if os.Geteuid() != 0 {
		t.Skip("no second Docker engine: dockerd runs as root, and the tests do not")
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	// Short folder names: containerd's socket path must fit in a unix address.
	dir, err := os.MkdirTemp("", "sk-dockerd-")
	if err != nil {
		t.Fatal(err)
	}
	host := fmt.Sprintf("tcp://127.0.0.1:%d", port)
	logf, err := os.Create(filepath.Join(dir, "dockerd.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(dockerd, "--storage-driver=vfs", "--iptables=false", "--bridge=none",
		"--data-root", filepath.Join(dir, "data"), "--exec-root", filepath.Join(dir, "exec"),
		"--pidfile", filepath.Join(dir, "dockerd.pid"), "-H", host)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = engineAttr()
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting a second dockerd: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		_ = logf.Close()
		_ = os.RemoveAll(dir)
	})
	e := &Engine{Host: host}
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := e.Run(nil, "version", "--format", "{{.Server.Version}}")
		if err == nil {
			return e
		}
		select {
		case <-exited:
			t.Fatalf("the second dockerd ended: %s", tail(filepath.Join(dir, "dockerd.log")))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second dockerd did not answer within a minute: %v\n%s", err, tail(filepath.Join(dir, "dockerd.log")))
		}
		time.Sleep(200 * time.Millisecond) // polling an engine that starts: nothing to wait on
	}
}

// freePort returns a loopback TCP port nobody listens on.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// tail returns the last lines of a log file.
func tail(path string) string {
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return strings.Join(lines[max(len(lines)-20, 0):], "\n")
}
