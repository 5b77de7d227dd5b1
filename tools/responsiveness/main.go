// Command responsiveness drives the real sidekicks binary in tmux (200×60) and prints how
// fast it answers keys: idle key echo against `cat` in the same tmux server, the worst key
// while another window floods 400,000 lines, after an agent sent a 1 MB word, after a resize, and the
// resident memory per displayed line, in two rounds: the first fills what is bounded (caches)
// with the lines, the second shows what each more line costs. `make responsiveness` builds
// the binary and runs it; -memory-only measures the memory alone, in about a minute.
//
// A key's echo is the time from sending the key (through a tmux control-mode client, so no
// process is started per key) to the moment the pane's output (piped by tmux into a FIFO
// this program reads) holds the character typed. Each key is a distinct non-ASCII letter
// that nothing else on the screen prints. The baseline is `cat` on a raw terminal in a
// window of the same tmux server, one key to it, one key to sidekicks, in turn, so that
// a drift of the machine's speed touches both alike.
//
// With -profile and a binary built with -tags profile (make profile), the flood's keys are
// also split into the time inside sidekicks, from its own key log (keys.txt), and the time
// outside it: tmux, this program, the machine's stalls, which reach cat's keys too.
package main

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/sidekicks", "the sidekicks binary")
	keys := flag.Int("keys", 60, "keys typed for the idle echo (at least 50)")
	flood := flag.Int("flood", 400_000, "lines the agent floods, one chunk each")
	word := flag.Int("word", 1<<20, "bytes of the word with no spaces")
	lines := flag.Int("lines", 20_000, "lines of 34 bytes echoed for the memory figure")
	flag.StringVar(&socketPrefix, "socket", socketPrefix, "the start of the private tmux server's socket name")
	flag.BoolVar(&profileCPU, "profile-cpu", true, "with -profile: record a CPU profile and an execution trace too")
	flag.BoolVar(&floodOnly, "flood-only", false, "measure the idle echo and the keys during the flood, and stop there")
	flag.BoolVar(&memoryOnly, "memory-only", false, "open Bob's window only and measure the memory per displayed line (both rounds), and stop there: no idle keys, no flood")
	flag.StringVar(&profileDir, "profile", "", "with a binary built with -tags profile: write its CPU profile and execution trace of the flood, and heap profiles before and after the memory test, into this folder")
	flag.Parse()
	if err := run(*bin, *keys, *flood, *word, *lines); err != nil {
		fmt.Fprintln(os.Stderr, "responsiveness:", err)
		os.Exit(1)
	}
}

// profileDir is where a binary built with -tags profile writes its profiles (-profile).
var profileDir string

// signal sends sig to pid when profiling: the binary's profile hooks answer it. With
// SIGUSR1 (a heap profile) it also copies the process's memory map (smapsN.txt).
func signal(pid int, sig syscall.Signal) {
	if profileDir == "" {
		return
	}
	_ = syscall.Kill(pid, sig)
	if sig == syscall.SIGUSR1 {
		smaps++
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid)); err == nil {
			_ = os.WriteFile(filepath.Join(profileDir, fmt.Sprintf("smaps%d.txt", smaps)), b, 0o644)
		}
	}
}

// smaps counts the memory maps copied.
var smaps int

// profileCPU: with -profile, the binary also records a CPU profile and an execution trace
// (which slow it down); without, only its keys' times and heap profiles.
var profileCPU bool

// floodOnly stops the run after the flood (-flood-only): the figures of the loop's order.
var floodOnly bool

// memoryOnly skips the idle keys and the flood and stops after the memory rounds
// (-memory-only): about a minute, and nothing that loads the machine.
var memoryOnly bool

// keyDeadline bounds the wait for one key's echo.
const keyDeadline = 120 * time.Second

// letters are the characters typed, each once per series: nothing else on screen prints them.
var letters = []rune("αβγδεζηθικλμνξπρστυφχψωабвгдежзиклмнопрстуфхцчшщэюя")

func run(bin string, nKeys, flood, word, lines int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "sidekicks-responsiveness-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg, err := writeConfig(dir, bin)
	if err != nil {
		return err
	}
	s, err := newServer(dir)
	if err != nil {
		return err
	}
	defer s.close()
	cat, err := s.window("cat", nil, "stty raw -echo; exec cat")
	if err != nil {
		return err
	}
	home := filepath.Join(dir, "home")
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home + "/config", "XDG_DATA_HOME=" + home + "/data",
		"XDG_STATE_HOME=" + home + "/state", "SIDEKICKS_CONFIG=", "LANG=C.UTF-8", "SIDEKICKS_DEMO_STATE=" + home + "/demo"}
	if profileDir != "" {
		if profileDir, err = filepath.Abs(profileDir); err != nil {
			return err
		}
		env = append(env, "SIDEKICKS_PROFILE_DIR="+profileDir)
		if profileCPU {
			env = append(env, "SIDEKICKS_PROFILE_CPU=1")
		}
		if floodOnly {
			// No heap profile is taken: the fine sampling of allocations, which slows each
			// of them, stays off and does not weigh on the keys measured.
			env = append(env, "SIDEKICKS_PROFILE_HEAP=0")
		}
	}
	app, err := s.window("app", env, "exec "+shellQuote(bin)+" --config "+shellQuote(cfg))
	if err != nil {
		return err
	}
	m := &meter{s: s, typed: map[*pane]int{}}
	if profileDir != "" {
		if m.log, err = os.Create(filepath.Join(profileDir, "echo.txt")); err != nil {
			return err
		}
		defer m.log.Close()
	}
	if err := s.waitScreen(app, "No window open", 30*time.Second); err != nil {
		return err
	}
	pid, err := s.pid(app)
	if err != nil {
		return err
	}

	if memoryOnly {
		if err := m.openAgent(app, 1, "Bob"); err != nil {
			return err
		}
		return memoryRounds(m, app, pid, lines)
	}

	// Alice's window, alone: the idle echo, key by key against cat's.
	if err := m.openAgent(app, 0, "Alice"); err != nil {
		return err
	}
	appIdle, catIdle, err := m.pairs(app, cat, nKeys)
	if err != nil {
		return err
	}
	fmt.Printf("idle key echo, %d keys:   sidekicks %s\n", nKeys, summary(appIdle))
	fmt.Printf("                          cat       %s\n", summary(catIdle))
	fmt.Printf("                          ratio of medians %.2f\n", ratio(median(appIdle), median(catIdle)))
	m.spawn = true
	appSpawn, catSpawn, err := m.pairs(app, cat, nKeys)
	if err != nil {
		return err
	}
	m.spawn = false
	fmt.Printf("the same, one tmux send-keys process per key: sidekicks %s\n", summary(appSpawn))
	fmt.Printf("                          cat       %s\n", summary(catSpawn))
	fmt.Printf("                          ratio of medians %.2f\n", ratio(median(appSpawn), median(catSpawn)))
	idle := median(appIdle)

	// Bob's window beside Alice's; Alice floods while keys are typed in Bob's.
	if err := m.openAgent(app, 1, "Bob"); err != nil {
		return err
	}
	before, _ := rssKiB(pid)
	cpu0, _ := cpuTime(pid)
	start := time.Now()
	if err := m.sendText(app, []string{"F6"}, fmt.Sprintf("/floodlines %d", flood), []string{"Enter", "F6"}); err != nil {
		return err
	}
	last := fmt.Sprintf("flood line %07d", flood) // the demo agent's last line (demoagent.FloodLine)
	var floodSends []sent
	m.sends, m.traced = &floodSends, app
	floodKeys, catKeys, err := m.keysUntil(app, cat, func() bool { return floodOver(s.screen(app), last) }, 10*time.Minute)
	m.sends = nil
	if err != nil {
		return err
	}
	after, _ := rssKiB(pid)
	cpu1, _ := cpuTime(pid)
	wall := time.Since(start)
	signal(pid, syscall.SIGUSR2)
	worst(fmt.Sprintf("keys during a %d-line flood in another window", flood), floodKeys, idle)
	fmt.Printf("                          cat meanwhile %s\n", summary(catKeys))
	// The machine's own stalls during the flood (the agent, tmux and sidekicks share its cores)
	// reach cat too: sidekicks' worst and p99 over cat's show what is sidekicks' own.
	fmt.Printf("                          worst / cat's worst %.1f, p99 / cat's p99 %.1f\n",
		ratio(slices.Max(floodKeys), slices.Max(catKeys)), ratio(quantile(floodKeys, 0.99), quantile(catKeys, 0.99)))
	calm := calmKeys(floodKeys, catKeys, 3*median(catIdle))
	fmt.Printf("                          the %d keys with cat's beside them within 3× its idle median: %s; worst / idle median %.1f\n",
		len(calm), summary(calm), ratio(slices.Max(calm), idle))
	if profileDir != "" {
		if err := printInside(filepath.Join(profileDir, "keys.txt"), floodSends); err != nil {
			fmt.Printf("                          inside sidekicks: %v\n", err)
		}
	}
	fmt.Printf("RSS %d → %d MiB over the flood; sidekicks used %.2f s of CPU in its %.2f s (%.0f %% of a CPU)\n",
		before>>10, after>>10, (cpu1 - cpu0).Seconds(), wall.Seconds(), 100*(cpu1-cpu0).Seconds()/wall.Seconds())
	if floodOnly {
		return nil
	}

	if err := memoryRounds(m, app, pid, lines); err != nil {
		return err
	}

	// One word of word bytes with no spaces, sent by Bob (the demo agent's /word, 4 KiB a
	// chunk, as an agent streams it); keys until it is shown, and after.
	if err := m.sendText(app, nil, fmt.Sprintf("/word %d", word), []string{"Enter"}); err != nil {
		return err
	}
	// From the turn's start (a turn over before it is seen is not waited for): a check
	// made before Bob's turn began would end the keys at once, before any were typed.
	_ = s.waitScreen(app, "Esc Cancel turn", 5*time.Second)
	wordKeys, _, err := m.keysUntil(app, cat, func() bool { return !strings.Contains(s.screen(app), "Esc Cancel turn") }, 10*time.Minute)
	if err != nil {
		return err
	}
	more, err := m.keys(app, 10)
	if err != nil {
		return err
	}
	wordKeys = append(wordKeys, more...)
	worst(fmt.Sprintf("keys while and after an agent sends a %d-byte word", word), wordKeys, idle)

	// The same word pasted as a message (/echo, so that Bob sends it back): the terminal
	// carries it to Sidekicks first, then the agent.
	rnd := rand.New(rand.NewSource(1))
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	w := make([]byte, word)
	for i := range w {
		w[i] = b64[rnd.Intn(len(b64))]
	}
	if err := m.paste(app, "/echo "+string(w)); err != nil {
		return err
	}
	pasteKeys, _, err := m.keysUntil(app, cat, func() bool { return !strings.Contains(s.screen(app), "Esc Cancel turn") }, 10*time.Minute)
	if err != nil {
		return err
	}
	if more, err = m.keys(app, 10); err != nil {
		return err
	}
	pasteKeys = append(pasteKeys, more...)
	worst(fmt.Sprintf("keys after pasting a %d-byte word (echoed)", word), pasteKeys, idle)

	// A resize with the word on screen, then keys.
	var resizeKeys []time.Duration
	for _, size := range [][2]string{{"160", "50"}, {"200", "60"}} {
		if _, err := s.run("resize-window", "-t", app.target, "-x", size[0], "-y", size[1]); err != nil {
			return err
		}
		ks, err := m.keys(app, 10)
		if err != nil {
			return err
		}
		resizeKeys = append(resizeKeys, ks...)
	}
	worst("keys after a resize with the word on screen", resizeKeys, idle)
	return nil
}

// memoryRounds has Bob echo lines of 34 bytes: each is a displayed line in the prompt and in
// the reply. Twice: the first round's figure counts what fills once and is bounded (the
// history's page caches, the runtime's own tables growing to the program's new size) with
// the lines; the second's is what each more line costs.
func memoryRounds(m *meter, app *pane, pid, lines int) error {
	for round, format := range []string{"line %08d of the memory test..\n", "line %08d of the second round.\n"} {
		if err := memoryRound(m, app, pid, round+1, format, lines); err != nil {
			return err
		}
	}
	return nil
}

// memoryRound has Bob echo lines lines of text made with format (34 bytes and a newline),
// and prints the memory they took per displayed line: right after, then settled.
func memoryRound(m *meter, app *pane, pid, round int, format string, lines int) error {
	s := m.s
	// From memory settled after what came before (Sidekicks gives back what a busy spell
	// grew once it has been quiet for 2 s), so that its garbage is not counted against the lines.
	before := settledRSS(pid, 20*time.Second, rssKiB)
	anonBefore := settledRSS(pid, 20*time.Second, anonKiB)
	signal(pid, syscall.SIGUSR1)
	var text strings.Builder
	text.WriteString("/echo ")
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&text, format, i)
	}
	if err := m.paste(app, text.String()); err != nil {
		return err
	}
	if err := s.waitScreen(app, strings.TrimSuffix(fmt.Sprintf(format, lines-1), "\n"), 5*time.Minute); err != nil {
		return err
	}
	if err := m.waitTurnOver(app); err != nil {
		return err
	}
	after, _ := rssKiB(pid)
	fmt.Printf("round %d: RSS per displayed 34-byte line: %d bytes (%d lines in the prompt and the reply, RSS %d → %d MiB)\n",
		round, (after-before)*1024/int64(2*lines), 2*lines, before>>10, after>>10)
	// What stays once the garbage of the turn (the prompt's and the reply's JSON, the
	// history's write) is collected and given back: the runtime returns it in the background.
	rest := settledRSS(pid, 20*time.Second, rssKiB)
	fmt.Printf("                          settled: %d bytes (RSS %d MiB after up to 20 s idle)\n",
		(rest-before)*1024/int64(2*lines), rest>>10)
	anonRest := settledRSS(pid, 20*time.Second, anonKiB)
	fmt.Printf("                          settled, anonymous memory only (heap and stacks, not the program's code pages): %d bytes (%d → %d MiB)\n",
		(anonRest-anonBefore)*1024/int64(2*lines), anonBefore>>10, anonRest>>10)
	signal(pid, syscall.SIGUSR1)
	return nil
}

// worst prints what keys took, and the worst over the idle median.
func worst(what string, keys []time.Duration, idle time.Duration) {
	fmt.Printf("%s, %d keys: %s; worst / idle median %.1f\n", what, len(keys), summary(keys), ratio(slices.Max(keys), idle))
}

// floodOver reports whether the screen shows the end of the flood in the left window (its
// last line) and that window's rule plain (no spinner: the turn is over).
func floodOver(screen, last string) bool {
	if !strings.Contains(screen, last) {
		return false
	}
	for _, line := range strings.Split(screen, "\n") {
		if rest, ok := strings.CutPrefix(line, "│─"); ok {
			left, _, _ := strings.Cut(rest, "│")
			return strings.Trim(left, "─") == ""
		}
	}
	return false
}

// writeConfig writes a configuration with two demo agents that stream without pauses.
func writeConfig(dir, bin string) (string, error) {
	ws := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("version: 1\nagents:\n")
	for _, name := range []string{"Alice", "Bob"} {
		fmt.Fprintf(&b, "  - name: %s\n    title: %s\n    icon: %s\n    command: %q\n    args: [demo-agent, --name, %s, --delay, \"0\"]\n    workspace: %q\n",
			strings.ToLower(name), name, name[:1], bin, name, ws)
	}
	path := filepath.Join(dir, "sidekicks.yaml")
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// calmKeys returns the keys of keys (typed each between cat's key of the same index and the
// next) whose two cat keys beside them took at most limit: the keys typed while the machine
// itself did not stall. A stall of the machine (the agent, tmux, the script and sidekicks
// share two cores) delays cat's echo as much as anyone's; what is left is sidekicks' own.
func calmKeys(keys, cat []time.Duration, limit time.Duration) []time.Duration {
	var out []time.Duration
	for i, d := range keys {
		if i < len(cat) && cat[i] <= limit && (i+1 >= len(cat) || cat[i+1] <= limit) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return keys
	}
	return out
}
