package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// defaultShutdownTimeout bounds how long quitting waits for the agents: each afterStop has
// 30 s at most, and they run at the same time.
const defaultShutdownTimeout = 90 * time.Second

// appOptions says how to start the application. Tests give a simulation screen and their
// own agents; the command line gives the terminal.
type appOptions struct {
	// configFlag is --config ("" to locate the file).
	configFlag string
	// openedFrom is the configuration the user left to open configFlag from the
	// application (Open…, Recent…); "" when the command line gave the file. Only a file
	// opened from the application becomes the last opened one.
	openedFrom string
	// dir is the folder Sidekicks was started in, where the project agents file is.
	dir    string
	stderr io.Writer
	// screen makes the screen; nil means the terminal.
	screen func() (tcell.Screen, error)
	// agents makes the agents of a configuration; nil means agentstack.New.
	agents agentsFactory
	// detectBackground asks the terminal for its background colour (ui.theme: system)
	// before the screen starts; false takes a dark background.
	detectBackground bool
	// shutdownTimeout bounds the wait for the agents when quitting.
	shutdownTimeout time.Duration
	// now is the screen's clock (nil: time.Now).
	now func() time.Time
	// version is Sidekicks' version, announced to the agents.
	version string
	// reread reads the files again for a reload; nil means loadConfiguration. Tests
	// give one that blocks, as a hung file system does.
	reread func(ctx context.Context, path, dir string) loaded
	// historyWriter sets the history writer's retries and bound (tests make them short).
	historyWriter store.WriterOptions
}

// application is Sidekicks running on one configuration: the screen, the history, the
// agents and the watcher of the file, tied together.
type application struct {
	o    appOptions
	path string // the configuration file
	// created is true when this start created the default configuration: the screen
	// says so first.
	created bool
	app     *window.App
	st      *store.Store
	agents  Agents
	logs    *runtime.Logs
	// highlighter colours the code of every window's conversation, one cache for all.
	highlighter *convo.Highlighter
	log         *appLog
	// work runs the application's slow work — the history, the agents' supervisor,
	// loading the configuration — off the screen's goroutine, one job at a time in the
	// order given, so that two reloads, or a rename then a delete, happen in the order the
	// user asked. Jobs hand their results back with App.Post.
	work    *jobs.Queue
	watcher *config.Watcher
	// projectWatcher follows the project agents file, when the folder has one.
	projectWatcher *config.Watcher
	done           chan struct{} // closed when the screen has stopped

	// reloads reads the files again off the screen's goroutine (reload.go).
	reloads reloader

	systemDark bool // the terminal's background, read once before the screen started
	stopped    atomic.Bool
	// unsaved is what the history could not write when the agents were shut down.
	unsaved atomic.Pointer[store.UnsavedError]

	statesMu      sync.Mutex
	latestStates  *runtime.Event
	statesPending bool

	// Owned by the screen's goroutine (and by the caller once Run has returned).
	lang      i18n.Lang      // the language of what the application says
	cfg       *config.Config // the configuration running now; never nil
	cur       loaded         // the load cfg came from
	channels  []store.Channel
	states    agentStates
	wins      []*appWindow
	recent    []string
	next      string // the configuration to open once this one has stopped
	quitting  bool
	startRefs []store.WindowRef
	startSave bool
	startLoad loaded
	// signedIn is the sign-in method each agent was last signed in with, until its next
	// turn says whether it worked (signin.go).
	signedIn map[string]string
	// restoring is true while the windows saved last are opened again (screen's goroutine).
	restoring bool
	// panel is the Agents panel and the configuration edited from the screen (panel.go).
	panel panelState
	// trace is the ACP trace of every agent's connection (trace.go).
	trace traceState
	// searches runs Search history's searches (search.go).
	searches searches
}

// run shows the screen until the user quits, then stops everything. It returns the exit
// status, and the configuration to open next when the user asked for another one.
func (ap *application) run() (code int, next string) {
	ap.app.Post(ap.start)
	ap.app.Go(ap.followStates)
	ap.watch()
	err := ap.app.Run()
	close(ap.done)
	for _, w := range []*config.Watcher{ap.watcher, ap.projectWatcher} {
		if w != nil {
			w.Close()
		}
	}
	code = 0
	if err != nil {
		code = 1
		ap.log.Printf("%v", err)
		ap.log.Flush()
		switch {
		case errors.Is(err, window.ErrFailed) && ap.log != nil:
			fmt.Fprintln(ap.o.stderr, catalogue.Text(ap.lang, msgPanic, ap.log.Path()))
		case errors.Is(err, window.ErrFailed):
			// No log file to hold the report: the terminal is restored, so it goes here.
			fmt.Fprintf(ap.o.stderr, "sidekicks: %v\n", err)
		default:
			fmt.Fprintln(ap.o.stderr, catalogue.Text(ap.lang, msgStartFailed, err.Error()))
		}
	}
	if !ap.stopped.Load() {
		// The screen stopped without the user quitting (a panic, the terminal gone): the
		// agents are stopped all the same; the windows are saved unless it was a panic.
		if err == nil {
			ap.saveWindows(ap.windowRefs())
		}
		ap.shutdownAgents(nil)
	}
	ap.stopSearches()
	ap.work.Close()
	ap.closeTrace()
	code = ap.reportUnsaved(code)
	if err := ap.st.Close(); err != nil {
		ap.log.Printf("%v", err)
	}
	ap.log.Printf("stopped")
	ap.log.Close()
	return code, ap.next
}

// start runs on the screen's goroutine once it runs: the first windows, and the errors
// of the configuration if it has any.
func (ap *application) start() {
	ap.openStartWindows(ap.startRefs, ap.startSave)
	notice := ""
	if ap.startLoad.diags.HasErrors() {
		ap.showErrors(ap.errorsIntro(ap.startLoad, msgErrorsIntro, ap.cfg.Path), ap.startLoad)
	} else if p := ap.startLoad.pending; p.Path != "" {
		notice = config.NotAllowedText(ap.lang, len(p.Agents))
	} else if n := warningCount(ap.startLoad.diags); n > 0 {
		// As a reload does: how many, then the first one (Agent status lists them all).
		notice = startCatalogue.Text(ap.lang, smsgLoadedWithWarnings, config.WarningsText(ap.lang, n)) +
			" · " + catalogue.Text(ap.lang, msgReloadedFirstWarning, firstWarning(ap.startLoad, ap.o.dir))
	}
	if notice = ap.withTraceProblem(notice); notice != "" {
		ap.app.Flash(notice)
	}
	if ap.created {
		ap.announceCreated()
	}
}

// followStates hands the agents' state changes to the screen. Changes merge: while one is
// waiting to be shown, a newer one replaces it, so a burst of changes is one redraw.
func (ap *application) followStates() {
	events, cancel := ap.agents.Subscribe()
	defer cancel()
	for {
		select {
		case ev := <-events:
			ap.statesMu.Lock()
			ap.latestStates = &ev
			post := !ap.statesPending
			ap.statesPending = true
			ap.statesMu.Unlock()
			if post {
				ap.app.Post(ap.takeStates)
			}
		case <-ap.done:
			return
		}
	}
}

// takeStates shows the latest states (screen goroutine).
func (ap *application) takeStates() {
	ap.statesMu.Lock()
	ev := ap.latestStates
	ap.statesPending = false
	ap.statesMu.Unlock()
	if ev == nil {
		return
	}
	ap.states = statesOf(*ev)
	ap.refreshViews()
}

// logFailure logs what failed and tells the user where to read why.
func (ap *application) logFailure(err error) {
	ap.log.Printf("%v", err)
	where := ap.log.Path()
	if where == "" {
		where = "sidekicks.log"
	} else {
		where = filepath.Base(where)
	}
	ap.app.Flash(catalogue.Text(ap.lang, msgHistoryFailed, where))
}
