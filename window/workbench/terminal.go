package workbench

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// OpenTerminal lends the terminal to an interactive shell in the agent's workspace,
// reached through its runtime (runtime.TerminalCommand: $SHELL in the local folder,
// docker exec -it, sbx exec -it): the screen is suspended, the shell runs on the
// terminal, and when it ends the screen comes back exactly as it was. Conversations go on
// streaming into their models meanwhile; they show when the screen is back. Call it on the
// screen's goroutine, which waits for the shell. A shell that cannot start is said in the
// status bar and returned; how the shell exits (exit 1 after a failed command) is not an
// error.
func OpenTerminal(app *window.App, a config.Agent) error {
	cmd := runtime.TerminalCommand(a)
	started := false
	err := app.Suspend(func() error {
		in, out, errOut, done := lendTerminal()
		defer done()
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errOut
		fmt.Fprintf(out, "\r\n%s\r\n", catalogue.Text(langOf(app), tTerminalBanner, a.Name))
		if err := cmd.Start(); err != nil {
			return err
		}
		started = true
		return cmd.Wait()
	})
	var exit *exec.ExitError
	if started && (err == nil || errors.As(err, &exit)) {
		return nil
	}
	if err != nil {
		app.Flash(catalogue.Text(langOf(app), tTerminalFailed, a.Title, err))
		return fmt.Errorf("opening the terminal of %q: %w", a.Name, err)
	}
	return nil
}

// runEditor edits a file in the user's editor with the terminal lent to it: $EDITOR, else
// $VISUAL, else vi, read by the shell as git does (so "code --wait" works), the file's
// path passed as an argument, never written into the shell's text. It returns the editor's
// name, and an error when it could not start or did not end with success.
func runEditor(app *window.App, file string) (string, error) {
	editor := os.Getenv("EDITOR")
	if editor == "" {
		editor = os.Getenv("VISUAL")
	}
	if editor == "" {
		editor = "vi"
	}
	cmd := exec.Command("/bin/sh", "-c", editor+` "$1"`, "sidekicks-editor", file)
	err := app.Suspend(func() error {
		in, out, errOut, done := lendTerminal()
		defer done()
		cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, errOut
		return cmd.Run()
	})
	return editor, err
}

// lendTerminal is terminalStdio; tests give the shell files instead.
var lendTerminal = terminalStdio

// terminalStdio returns the terminal to lend: the controlling terminal itself, which the
// screen draws on whatever Sidekicks' own stdout is; Sidekicks' stdin, stdout and stderr
// when there is none.
func terminalStdio() (in, out, errOut *os.File, done func()) {
	if tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		return tty, tty, tty, func() { tty.Close() }
	}
	return os.Stdin, os.Stdout, os.Stderr, func() {}
}
