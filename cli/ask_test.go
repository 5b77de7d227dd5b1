package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// TestAskHelperProcess is not a test: it is `sidekicks ask`, run as a real process by the
// tests that send it signals or measure its memory.
func TestAskHelperProcess(t *testing.T) {
	raw := os.Getenv("SIDEKICKS_TEST_ASK_ARGS")
	if raw == "" {
		t.Skip("only runs as a child process")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		os.Exit(100)
	}
	os.Exit(run(append([]string{"ask"}, args...), os.Stdout, os.Stderr))
}

// askCommand is `sidekicks ask args…` as a child process, in the current folder.
func askCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.Command(testagents.Binary(t), "-test.run=^TestAskHelperProcess$")
	cmd.Env = append(os.Environ(), "SIDEKICKS_TEST_ASK_ARGS="+string(a))
	return cmd
}

// demoConfig writes a configuration with the demo agent "demo" working in dir, and
// returns its path.
func demoConfig(t *testing.T, dir, extra string) string {
	t.Helper()
	return testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "demo", dir, filepath.Join(dir, "state"), extra))
}

func askCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCmd(t, append([]string{"ask"}, args...)...)
}

// assertClean fails when s holds a byte an agent chose that a terminal would act on.
func assertClean(t *testing.T, where, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%s: invalid UTF-8", where)
	}
	for i, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%s: control character %U at %d in %q", where, r, i, s)
			return
		}
	}
}

func TestAskStreamsTheReply(t *testing.T) {
	dir := testagents.Env(t)
	cfg := demoConfig(t, dir, "")
	code, out, errOut := askCmd(t, "--config", cfg, "demo", "show", "me", "some", "rust")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, "I am demo") || !strings.Contains(out, "```rust\n") || !strings.HasSuffix(out, "\n") {
		t.Errorf("stdout:\n%s", out)
	}
	// The demo agent streams without pause here: the plan is seen complete.
	for _, want := range []string{"[thinking] The request has 4 words", "[plan] ☑ Understand the request\n", "[plan] ☑ Write a small Rust example\n", "[plan] ☑ Sum up"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(out, "[plan]") || strings.Contains(errOut, "I am demo") {
		t.Error("the reply and the rest are mixed up")
	}
	assertClean(t, "stdout", out)
	assertClean(t, "stderr", errOut)
}

func TestAskEcho(t *testing.T) {
	dir := testagents.Env(t)
	code, out, errOut := askCmd(t, "--config", demoConfig(t, dir, ""), "demo", "/echo", "hi")
	if code != 0 || out != "hi\n" || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0, \"hi\\n\", nothing", code, out, errOut)
	}
}

func TestAskPermissions(t *testing.T) {
	dir := testagents.Env(t)
	cfg := demoConfig(t, dir, "")
	target := filepath.Join(dir, "f.txt")

	code, out, errOut := askCmd(t, "--config", cfg, "demo", "/write", "f.txt", "x")
	if code != 0 || !strings.Contains(out, "permission was refused") {
		t.Errorf("without --yes: exit %d, stdout %q", code, out)
	}
	if _, err := os.Stat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the file was written without --yes (%v)", err)
	}
	for _, want := range []string{"[permission] demo asks: Write f.txt (Allow, Reject)", `[permission] answered "Reject" (refused; --yes allows)`, "[tool] Write f.txt (failed)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}

	code, _, errOut = askCmd(t, "--config", cfg, "--yes", "demo", "/write", "f.txt", "x")
	if data, err := os.ReadFile(target); code != 0 || err != nil || string(data) != "x" {
		t.Errorf("with --yes: exit %d, file %q (%v)", code, data, err)
	}
	for _, want := range []string{`[permission] answered "Allow" (allow_once, --yes)`, "[tool] Write f.txt (completed)"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestAskWithoutYesRefusesWrites runs an agent that writes whatever the answer, the file
// it asked about and another: without --yes, neither is written, and stderr says why, in
// the user's language.
func TestAskWithoutYesRefusesWrites(t *testing.T) {
	dir := testagents.Env(t)
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "pushy", "pushy", ws))
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	french := filepath.Join(dir, "french.yaml")
	if err := os.WriteFile(french, []byte(strings.Replace(string(data), "version: 1\n", "version: 1\nui:\n  language: fr\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	asked, other := filepath.Join(ws, "asked.txt"), filepath.Join(ws, "other.txt")

	for _, c := range []struct {
		lang, config string
		refused      string
	}{
		{"en", cfg, "[write] pushy may not write %s: writes are refused without --yes"},
		{"fr", french, "[écriture] pushy ne peut pas écrire %s : les écritures sont refusées sans --yes"},
	} {
		code, out, errOut := askCmd(t, "--config", c.config, "pushy", "write")
		if code != 0 {
			t.Fatalf("%s: exit %d, stderr:\n%s", c.lang, code, errOut)
		}
		for _, p := range []string{asked, other} {
			if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: %s was written without --yes (%v)", c.lang, filepath.Base(p), err)
			}
			if want := fmt.Sprintf(c.refused, p); !strings.Contains(errOut, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.lang, want, errOut)
			}
		}
		// The agent is told why.
		if want := "other.txt: refused: writing " + other + ": Sidekicks refuses writes: `sidekicks ask` runs without --yes"; !strings.Contains(out, want) {
			t.Errorf("%s: stdout lacks %q:\n%s", c.lang, want, out)
		}
	}

	code, out, errOut := askCmd(t, "--config", cfg, "--yes", "pushy", "write")
	if code != 0 || out != "asked.txt: written\nother.txt: written\n" || strings.Contains(errOut, "[write]") {
		t.Errorf("with --yes: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	for _, p := range []string{asked, other} {
		if data, err := os.ReadFile(p); err != nil || string(data) != "pushed "+filepath.Base(p) {
			t.Errorf("with --yes: %s holds %q (%v)", filepath.Base(p), data, err)
		}
	}
}

// TestAskYesPrefersAllowOnce runs agents that offer "always" first: --yes answers with
// the option that allows once, and allows always only when the agent offers nothing else;
// without --yes, the refusal is for once too. Stderr says which option was picked.
func TestAskYesPrefersAllowOnce(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "asker", "asker", dir),
		testagents.ModeEntry(t, "always", "asker-always", dir))
	for _, c := range []struct {
		args         []string
		reply, noted string
	}{
		{[]string{"--yes", "asker"}, "answered once\n", `[permission] answered "Allow once" (allow_once, --yes)`},
		{[]string{"asker"}, "answered no\n", `[permission] answered "Reject" (refused; --yes allows)`},
		{[]string{"--yes", "always"}, "answered always\n", `[permission] answered "Always Allow" (allow_always, --yes)`},
		{[]string{"always"}, "answered never\n", `[permission] answered "Never" (refused; --yes allows)`},
	} {
		code, out, errOut := askCmd(t, append(append([]string{"--config", cfg}, c.args...), "change it")...)
		if code != 0 || out != c.reply || !strings.Contains(errOut, c.noted) {
			t.Errorf("ask %q: exit %d, stdout %q, want %q; stderr lacks %q?\n%s", c.args, code, out, c.reply, c.noted, errOut)
		}
	}
}

func TestAskFailures(t *testing.T) {
	dir := testagents.Env(t)
	cfg := demoConfig(t, dir, "")
	code, out, errOut := askCmd(t, "--config", cfg, "demo", "/fail")
	if code != 1 || !strings.Contains(out, "fails on purpose") ||
		!strings.HasSuffix(errOut, "sidekicks ask: the agent refused session/prompt: the demo agent failed on purpose (/fail) (error -32603)\n"+askTraceHint) {
		t.Errorf("/fail: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = askCmd(t, "--config", cfg, "demo", "/crash")
	if code != 1 || !strings.HasSuffix(errOut, "sidekicks ask: the agent exited (exit status 3)\n"+askTraceHint) {
		t.Errorf("/crash: exit %d, stderr %q", code, errOut)
	}
}

func TestAskUsage(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "alice", dir, dir, ""), testagents.DemoEntry(t, "bob", dir, dir, ""))
	code, out, errOut := askCmd(t, "--config", cfg, "carol", "hi")
	if code != 2 || out != "" || errOut != `sidekicks ask: unknown agent "carol"; the agents of sidekicks.yaml are: alice, bob`+"\n" {
		t.Errorf("unknown agent: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, args := range [][]string{{"--config", cfg, "alice"}, {}, {"--bogus"}} {
		if code, _, errOut := askCmd(t, args...); code != 2 || !strings.Contains(errOut, "usage: "+askSynopsis) {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, out, _ := askCmd(t, "--help"); code != 0 || !strings.Contains(out, "-yes") || !strings.Contains(out, "-trace") {
		t.Errorf("--help: exit %d, stdout %q", code, out)
	}
	writeFile(t, filepath.Join(dir, "bad.yaml"), "version: 1\nagents:\n  - name: Bad Name\n    command: x\n")
	if code, _, errOut := askCmd(t, "--config", "bad.yaml", "a", "hi"); code != 1 || !strings.Contains(errOut, "bad.yaml: line 3") {
		t.Errorf("bad configuration: exit %d, stderr %q", code, errOut)
	}
	writeFile(t, filepath.Join(dir, "fr.yaml"), "version: 1\nui:\n  language: fr\nagents: []\n")
	if code, _, errOut := askCmd(t, "--config", "fr.yaml", "a", "hi"); code != 2 || errOut != "sidekicks ask: agent inconnu : « a » ; fr.yaml n'a aucun agent\n" {
		t.Errorf("French: exit %d, stderr %q", code, errOut)
	}
}

func TestAskUsesTheProjectAgents(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "alice", dir, dir, ""))
	writeFile(t, filepath.Join(dir, ".sidekicks", "acp.toml"), fmt.Sprintf("[[agent]]\nname = \"Helper Bot\"\ncommand = %q\nargs = [\"-test.run=^$\"]\nenv = { SIDEKICKS_TEST_AGENT = \"noload\" }\n", testagents.Binary(t)))
	if code, _, errOut := runCmd(t, "allow", "--yes"); code != 0 {
		t.Fatalf("allow: exit %d, stderr %q", code, errOut)
	}
	if code, out, errOut := askCmd(t, "--config", cfg, "helper-bot", "hi"); code != 0 || out != "ok\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestAskNeverPrintsEscapes(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.DemoEntry(t, "demo", dir, filepath.Join(dir, "state"), ""), testagents.ModeEntry(t, "evil", "hostile", dir), testagents.ModeEntry(t, "fragile", "crashy", dir))

	code, out, errOut := askCmd(t, "--config", cfg, "demo", "/echo", "a\x1b[2Jb\x1b]52;c;eA==\x07c\u009b1m\u202ed")
	if code != 0 || out != "abcd\n" {
		t.Errorf("echo: exit %d, stdout %q", code, out)
	}
	assertClean(t, "echo stdout", out)

	code, out, errOut = askCmd(t, "--config", cfg, "--yes", "evil", "hi")
	// The reply's first chunk ends inside an escape sequence: its rest shows as text.
	if code != 0 || out != "reply A1mred evilB\npermission allowed\n" {
		t.Errorf("hostile: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, want := range []string{"[thinking] think Ared", "[plan] ☐ step Ared", "[tool] tool Ared", "(completed)", "[permission] evil asks: tool Ared", `answered "Allow Ared`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	assertClean(t, "hostile stdout", out)
	assertClean(t, "hostile stderr", errOut)

	code, out, errOut = askCmd(t, "--config", cfg, "fragile", "hi")
	if code != 1 || !strings.Contains(errOut, "the agent exited (exit status 7): panic: A") {
		t.Errorf("crash: exit %d, stderr %q", code, errOut)
	}
	assertClean(t, "crash stdout", out)
	assertClean(t, "crash stderr", errOut)
}

var traceLine = regexp.MustCompile(`^\d{4}-\d\d-\d\dT[\d:.]+Z demo (->|<-) \{.*\}$`)

func TestAskTrace(t *testing.T) {
	dir := testagents.Env(t)
	cfg := demoConfig(t, dir, "")
	check := func(path string) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("no trace: %v", err)
		}
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		sent, received := 0, 0
		for _, l := range lines {
			m := traceLine.FindStringSubmatch(l)
			if m == nil {
				t.Errorf("trace line %q", l)
				continue
			}
			if m[1] == "->" {
				sent++
			} else {
				received++
			}
		}
		if sent < 3 || received < 3 {
			t.Errorf("%d lines sent, %d received", sent, received)
		}
	}
	if code, _, errOut := askCmd(t, "--config", cfg, "--trace", "flag.log", "demo", "/echo hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	check(filepath.Join(dir, "flag.log"))
	t.Setenv(acp.TraceEnv, filepath.Join(dir, "env.log"))
	if code, _, errOut := askCmd(t, "--config", cfg, "demo", "/echo hi"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	check(filepath.Join(dir, "env.log"))
}

// notifyWriter is a stdout that says when something was written.
type notifyWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{}
}

func newNotifyWriter() *notifyWriter { return &notifyWriter{wrote: make(chan struct{}, 1)} }

func (w *notifyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return w.buf.Write(p)
}

func (w *notifyWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestAskStopsAnAgentThatIgnoresCtrlC(t *testing.T) {
	dir := testagents.Env(t)
	cfg := testagents.WriteConfig(t, dir, 2, testagents.ModeEntry(t, "mule", "stubborn", dir))
	for _, second := range []bool{false, true} {
		interrupts := make(chan os.Signal, 2)
		out, errOut := newNotifyWriter(), &syncWriter{}
		grace := 200 * time.Millisecond
		if second {
			grace = time.Hour // only the second Ctrl-C can stop it
		}
		done := make(chan int, 1)
		go func() {
			done <- ask([]string{"--config", cfg, "mule", "go"}, out, errOut, askEnv{interrupts: interrupts, cancelGrace: grace})
		}()
		select {
		case <-out.wrote:
		case <-time.After(30 * time.Second):
			t.Fatal("the agent never started its reply")
		}
		interrupts <- os.Interrupt
		if second {
			interrupts <- os.Interrupt
		}
		select {
		case code := <-done:
			if code != 1 || !strings.Contains(errOut.String(), "sidekicks ask: the agent did not end its turn after Ctrl-C; it was stopped\n") {
				t.Errorf("second Ctrl-C %v: exit %d, stderr %q", second, code, errOut.String())
			}
			if !strings.Contains(errOut.String(), "cancelling the turn (Ctrl-C again stops the agent)") {
				t.Errorf("stderr %q does not say the turn is being cancelled", errOut.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("ask did not end after Ctrl-C (second %v)", second)
		}
	}
}

// syncWriter is a buffer several goroutines write to.
type syncWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestAskCtrlCCancelsTheTurn(t *testing.T) {
	dir := testagents.Env(t)
	touch, err := exec.LookPath("touch")
	if err != nil {
		t.Skip("no touch command")
	}
	marker := filepath.Join(dir, "marker")
	cfg := demoConfig(t, dir, fmt.Sprintf("    afterStop: [%q, %q]\n", touch, marker))
	cmd := askCommand(t, "--config", cfg, "demo", "/slow")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncWriter
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	started := make(chan string, 1)
	rest := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		started <- line
		b, _ := io.ReadAll(r)
		rest <- string(b)
	}()
	select {
	case line := <-started:
		if !strings.HasPrefix(line, "Here comes a slow stream") {
			t.Fatalf("first line %q", line)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the reply never started")
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("exit %v, want status 130; stderr %q", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ask did not exit after Ctrl-C")
	}
	if !strings.HasSuffix(stderr.String(), "sidekicks ask: the turn was cancelled\n") {
		t.Errorf("stderr %q", stderr.String())
	}
	if out := <-rest; strings.Contains(out, "word2000") {
		t.Errorf("the whole reply streamed despite Ctrl-C")
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("afterStop did not run before ask exited: %v", err)
	}
}

// floodText is the reply of `/flood n`: "1 2 … n ".
func floodText(n int) int {
	total := 0
	for i := 1; i <= n; i++ {
		total += len(fmt.Sprint(i)) + 1
	}
	return total
}

// countWriter counts bytes.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// A real `sidekicks ask` process printing a flood of 200,000 chunks stays under 150 MiB.
func TestAskFloodMemory(t *testing.T) {
	dir := testagents.Env(t)
	cmd := askCommand(t, "--config", demoConfig(t, dir, ""), "demo", "/flood 200000")
	var out countWriter
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if want := int64(floodText(200000) + 1); out.n != want {
		t.Errorf("printed %d bytes, want the whole reply, %d", out.n, want)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no resource usage on this system")
	}
	peak := ru.Maxrss * 1024 // kilobytes on Linux
	t.Logf("peak RSS of sidekicks ask on /flood 200000: %.1f MiB", float64(peak)/(1<<20))
	if peak >= 150<<20 {
		t.Errorf("peak RSS %d MiB, want under 150 MiB", peak>>20)
	}
}
