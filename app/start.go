package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// startFailure is a start that stopped before the screen: what to print and the status.
type startFailure struct {
	message string
	code    int
}

func (f *startFailure) Error() string { return f.message }

// openApplication does everything that comes before the screen: it finds and loads the
// configuration, opens the log and the history (refused when another Sidekicks holds it),
// creates the declared channels, makes the agents and the screen. Nothing is drawn yet:
// run starts the screen.
func openApplication(o appOptions) (*application, error) {
	if o.stderr == nil {
		o.stderr = io.Discard
	}
	if o.agents == nil {
		o.agents = newAgents
	}
	if o.shutdownTimeout <= 0 {
		o.shutdownTimeout = defaultShutdownTimeout
	}
	path, created, err := config.Locate(o.configFlag)
	if err != nil {
		return nil, &startFailure{"sidekicks: " + config.NotFoundText(config.LanguageOf(nil), err), 1}
	}
	l := loadConfiguration(context.Background(), path, o.dir)
	ap := &application{o: o, path: path, created: created, lang: l.lang, done: make(chan struct{}), startLoad: l, cur: l}
	ap.openLog()
	if created {
		fmt.Fprintln(o.stderr, "sidekicks: "+config.CreatedText(l.lang, path))
		ap.log.Printf("created the default configuration %s", path)
	}
	ap.log.Printf("starting on %s (pid %d)", path, os.Getpid())
	// Before any agent starts: what a killed Sidekicks left is stopped first.
	runtime.TrackProcesses(ap.log.Printf)
	ap.cfg = l.usable
	if ap.cfg == nil {
		ap.cfg = emptyConfig(path, l.lang)
	}
	if l.diags.HasErrors() {
		ap.log.Printf("the configuration has %d errors: %s", len(errorsOnly(l.diags)), errorsOnly(l.diags).Error())
	}
	if err := ap.openStore(); err != nil {
		ap.log.Printf("%v", err)
		ap.log.Close()
		return nil, err
	}
	logsDir, err := runtime.LogsDir()
	if err != nil {
		ap.log.Printf("agents' logs stay in memory: %v", err)
	}
	// The screen comes first: its guard starts every long-lived goroutine of the agents,
	// so that a panic in any of them restores the terminal and is logged. It touches the
	// terminal only once run starts it.
	if err := ap.newScreen(); err != nil {
		ap.st.Close()
		ap.log.Printf("%v", err)
		ap.log.Close()
		return nil, &startFailure{catalogue.Text(ap.lang, msgStartFailed, err.Error()), 1}
	}
	ap.rememberOpened()
	ap.work = jobs.New(jobs.Options{Name: "application work", Go: ap.app.GoNamed})
	ap.highlighter = convo.NewHighlighter(convo.HighlighterOptions{Go: ap.app.GoNamed})
	ap.logs = runtime.NewLogs(runtime.LogsOptions{Dir: logsDir, Go: ap.app.GoNamed, Problem: ap.agentLogProblem})
	ap.log.setProblem(ap.appLogProblem)
	// No agent writes Sidekicks' own files through the client.
	own := agentstack.OwnFiles(ap.path, o.dir)
	// One trace for every connection the stack makes: each agent window's, each channel
	// member's.
	trace := ap.openTrace()
	started := *ap.cfg
	started.Agents = ap.agentsWithSecrets(ap.cfg.Agents) // secrets.go
	if ap.agents, err = o.agents(&started, agentstack.Options{Logs: ap.logs, Trace: trace, ClientVersion: o.version, Go: ap.app.GoNamed,
		ReaderRest: ap.app.ReaderRest,
		OwnFiles:   own, ErrorHint: errCatalogue.Text(ap.lang, errmsgSeeAgentLog), Elicit: ap.elicitor(),
		HistoryStatus: ap.historyStatus, HistoryWriter: o.historyWriter, TurnEnded: ap.turnEnded}, ap.st); err != nil {
		ap.closeTrace()
		ap.st.Close()
		ap.log.Printf("making the agents: %v", err)
		ap.log.Close()
		return nil, &startFailure{catalogue.Text(ap.lang, msgStartFailed, err.Error()), 1}
	}
	return ap, nil
}

// openLog opens Sidekicks' own log; without it, the application runs and says so on
// stderr before the screen starts.
func (ap *application) openLog() {
	path, err := appLogPath()
	if err == nil {
		ap.log, err = openAppLog(path, 0)
	}
	if err != nil {
		fmt.Fprintf(ap.o.stderr, "sidekicks: no log file: %v\n", err)
	}
}

// openStore opens the history of the configuration, creates the declared channels and
// reads the channels and the windows saved last.
func (ap *application) openStore() error {
	var err error
	ap.st, err = store.OpenConfig(ap.path)
	var damaged *store.DamagedError
	if errors.As(err, &damaged) {
		ap.log.Printf("%v", err)
		if aside, ok := ap.offerNewHistory(damaged); ok {
			if err = store.SetAside(damaged.Path, aside); err == nil {
				ap.log.Printf("the damaged history was moved to %s; starting with a new history", aside)
				ap.st, err = store.OpenConfig(ap.path)
			}
		}
	}
	var locked *store.LockedError
	var newer *store.NewerSchemaError
	switch {
	case errors.As(err, &damaged):
		return &startFailure{"sidekicks: " + damaged.Message(ap.lang), 1}
	case errors.As(err, &locked):
		return &startFailure{"sidekicks: " + locked.Message(ap.lang), 1}
	case errors.As(err, &newer):
		return &startFailure{"sidekicks: " + newer.Message(ap.lang), 1}
	case err != nil:
		return &startFailure{catalogue.Text(ap.lang, msgStartFailed, err.Error()), 1}
	}
	if created, _, err := ap.st.EnsureDeclared(ap.cfg.Channels); err != nil {
		ap.log.Printf("creating the declared channels: %v", err)
	} else if len(created) > 0 {
		ap.log.Printf("created the declared channels %q", created)
	}
	if ap.channels, err = ap.st.Channels(); err != nil {
		ap.log.Printf("reading the channels: %v", err)
	}
	if ap.startRefs, ap.startSave, err = ap.st.Windows(); err != nil {
		ap.log.Printf("%v", err)
	}
	return nil
}

// rememberOpened records the file as the last one opened when it was opened from the
// application (Open…, Recent…: never a file --config, SIDEKICKS_CONFIG or the default gave),
// and reads the recent files. A damaged preferences file is kept beside the new one, which
// the status bar says once the screen runs.
func (ap *application) rememberOpened() {
	if _, err := os.Stat(ap.path); err == nil {
		var kept string
		var err error
		if ap.o.openedFrom != "" {
			kept, err = config.RememberOpenedFrom(ap.o.openedFrom, ap.path)
		} else {
			kept, err = config.KeepDamagedPreferences()
		}
		if err != nil {
			ap.log.Printf("remembering the configuration: %v", err)
		}
		if kept != "" {
			ap.log.Printf("the preferences file could not be understood: kept as %s, new preferences written", kept)
			text := config.DamagedPreferencesText(ap.lang, kept)
			fmt.Fprintln(ap.o.stderr, "sidekicks: "+text)
			ap.app.Post(func() { ap.app.Flash(text) })
		}
	}
	prefs, err := config.LoadPreferences()
	if err != nil {
		ap.log.Printf("%v", err)
	}
	for _, p := range prefs.RecentFiles() {
		if p != ap.path {
			ap.recent = append(ap.recent, p)
		}
	}
}

// offerNewHistory asks, on the screen, whether to start with a new history, the damaged one
// kept beside it, and returns where to keep it when the user accepts. Without a screen (it
// cannot start) the answer is no, and the message printed says what to do.
func (ap *application) offerNewHistory(d *store.DamagedError) (aside string, ok bool) {
	aside = store.AsidePath(d.Path, ap.now())
	w, err := ap.windowApp()
	if err != nil {
		ap.log.Printf("no screen to offer a new history: %v", err)
		return "", false
	}
	t := func(m hmsg, args ...any) string { return historyCatalogue.Text(ap.lang, m, args...) }
	req := window.OptionsRequest{
		Title:   t(hmsgDamagedTitle),
		Heading: t(hmsgDamagedHeading),
		Detail:  t(hmsgDamagedDetail, d.Path, d.Reason(), filepath.Base(aside)),
		Options: []window.Option{
			{ID: "new", Text: t(hmsgNewHistory)},
			{ID: "quit", Text: t(hmsgQuit)},
		},
	}
	w.Post(func() {
		w.AskOption(req, func(id string, chosen bool) {
			ok = chosen && id == "new"
			w.Quit()
		})
	})
	if err := w.Run(); err != nil {
		ap.log.Printf("offering a new history: %v", err)
		return "", false
	}
	return aside, ok
}

// newScreen makes the window app in the configuration's language and theme, with its menus.
func (ap *application) newScreen() error {
	app, err := ap.windowApp()
	if err != nil {
		return err
	}
	ap.app = app
	app.SetDesktopText(func() string { return catalogue.Text(ap.lang, msgNoWindow) })
	app.SetKeyList(func() []window.KeyGroup { return keyList(app) })
	app.SetMenus(menuBar(app, ap.menuHandlers()))
	return nil
}

// windowApp makes a window app on a new screen, in the configuration's language and theme.
func (ap *application) windowApp() (*window.App, error) {
	var screen tcell.Screen
	if ap.o.screen != nil {
		s, err := ap.o.screen()
		if err != nil {
			return nil, fmt.Errorf("opening the screen: %w", err)
		}
		screen = s
	}
	ap.systemDark = true
	if ap.o.detectBackground && ap.cfg.UI.Theme != "light" && ap.cfg.UI.Theme != "dark" {
		if dark, ok := window.DetectBackground(300 * time.Millisecond); ok {
			ap.systemDark = dark
		}
	}
	return window.New(window.Options{
		Screen:   screen,
		Theme:    ap.theme(ap.cfg.UI.Theme),
		Language: ap.cfg.UI.Language,
		Now:      ap.o.now,
	})
}

// theme returns the theme of a ui.theme setting.
func (ap *application) theme(setting string) *window.Theme {
	return window.SelectTheme(setting, ap.systemDark, os.Getenv("NO_COLOR") != "")
}
