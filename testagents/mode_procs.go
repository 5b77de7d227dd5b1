package testagents

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The agents that outlive what they should, for the tests of stopping processes. Each
// writes, as it starts, the process ids a test watches to PidsFile in its working folder
// (the workspace): its own, then its grandchild's when it has one, on one line.
//   - ClingyMode ignores SIGTERM and SIGHUP, and stays when its stdin closes; it answers a
//     prompt with "holding" and never ends the turn. Only SIGKILL ends it.
//   - SetsidMode starts `sleep 1000` in a session of its own (setsid), which inherits its
//     environment; it answers a prompt with "forked" and ends the turn, unless the prompt
//     is "hold"; it leaves when its stdin closes, its child still running.
//   - SetsidBareMode starts the same child with an empty environment and SIGTERM ignored,
//     and stays when its stdin closes (SIGTERM ends it): only its process tree, while it
//     lives, tells the child is its own, and only SIGKILL ends the child.
const (
	ClingyMode     = "clingy"
	SetsidMode     = "setsid"
	SetsidBareMode = "setsid-bare"
	PidsFile       = "procs.pids"
)

func init() {
	modes[ClingyMode] = func(in io.Reader, out, stderr io.Writer) int {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
		return serveProcs(ClingyMode, in, out, stderr)
	}
	modes[SetsidMode] = func(in io.Reader, out, stderr io.Writer) int {
		return serveProcs(SetsidMode, in, out, stderr)
	}
	modes[SetsidBareMode] = func(in io.Reader, out, stderr io.Writer) int {
		return serveProcs(SetsidBareMode, in, out, stderr)
	}
}

func serveProcs(mode string, in io.Reader, out, stderr io.Writer) int {
	pids := []string{strconv.Itoa(os.Getpid())}
	if mode != ClingyMode {
		child := exec.Command("sleep", "1000")
		if mode == SetsidBareMode {
			sleep, err := exec.LookPath("sleep")
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", mode, err)
				return 1
			}
			// An ignored signal stays ignored across exec.
			child = exec.Command("/bin/sh", "-c", `trap "" TERM; exec "$0" 1000`, sleep)
			child.Env = []string{}
		}
		child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := child.Start(); err != nil {
			fmt.Fprintf(stderr, "%s: starting the child: %v\n", mode, err)
			return 1
		}
		pids = append(pids, strconv.Itoa(child.Process.Pid))
	}
	if err := writePids(strings.Join(pids, " ")); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", mode, err)
		return 1
	}
	p := newPeer(mode, in, out)
	for {
		m, ok := p.next()
		if !ok {
			break
		}
		if p.handshake(m, nil) || m.Method != "session/prompt" {
			continue
		}
		switch {
		case mode == ClingyMode:
			p.say(m.Params.SessionID, "holding")
		case strings.TrimSpace(m.promptText()) == "hold":
			p.say(m.Params.SessionID, "holding")
		default:
			p.say(m.Params.SessionID, "forked")
			p.endTurn(m.ID)
		}
	}
	if mode == SetsidMode {
		return 0
	}
	for { // the end of stdin is ignored: only a signal ends it
		time.Sleep(time.Hour)
	}
}

// writePids writes the line whole, under another name first, so that a reader never sees
// half of it.
func writePids(line string) error {
	tmp := PidsFile + ".tmp"
	if err := os.WriteFile(tmp, []byte(line+"\n"), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Clean(PidsFile))
}
