package testagents

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"testing"
)

// SDKExampleAgent builds the Go SDK's example agent from the module cache, at the version
// go.mod pins, and returns its binary. Offline: the SDK is already in the cache, since
// Sidekicks builds with it.
func SDKExampleAgent(t testing.TB) string {
	t.Helper()
	_, file, _, ok := goruntime.Caller(0)
	if !ok {
		t.Fatal("the testagents package does not know where it is")
	}
	bin := filepath.Join(t.TempDir(), "sdkagent")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/coder/acp-go-sdk/example/agent")
	cmd.Dir = filepath.Dir(filepath.Dir(file)) // the module's root, whose go.mod pins the SDK
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the SDK's example agent: %v\n%s", err, out)
	}
	return bin
}
