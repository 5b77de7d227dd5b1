package window

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// Suspend hands the terminal over to run — a shell, an editor — and takes it back: the
// screen leaves the alternate screen and raw mode, run is called on the UI goroutine,
// which waits for it (nothing is drawn meanwhile), and the screen comes back redrawn in
// full, exactly as it was. While run runs, Post and Invalidate keep working without
// blocking (what they queue runs once the screen is back), and Ctrl-C, Ctrl-\ and Ctrl-Z
// typed at the terminal go to the program run started and leave Sidekicks alone. Call it
// on the UI goroutine. It returns run's error, or why the terminal could not be handed over or taken
// back.
func (a *App) Suspend(run func() error) error {
	if err := a.screen.Suspend(); err != nil {
		return fmt.Errorf("handing the terminal over: %w", err)
	}
	runErr := a.runSuspended(run)
	// The mouse and a paste in progress belong to the time before; the terminal may have
	// changed size meanwhile, and its content is the other program's: redraw every cell.
	a.buttons, a.mouseTarget = 0, nil
	a.paste = pasteState{}
	a.needSync, a.tcellSync = true, true
	a.markDirty()
	if err := a.screen.Resume(); err != nil {
		return errors.Join(runErr, fmt.Errorf("taking the terminal back: %w", err))
	}
	return runErr
}

// runSuspended runs run with the terminal's job-control signals caught: in cooked mode the
// terminal sends them to its whole foreground process group, Sidekicks included, whose
// default would be to die (or stop) under the program it lent the terminal to.
func (a *App) runSuspended(run func() error) error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGQUIT, syscall.SIGTSTP)
	defer signal.Stop(sigs)
	return run()
}
