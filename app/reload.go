package app

import (
	"context"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// watch applies each save of the configuration file, and of the folder's project agents
// file (also when it is created, or its .sidekicks folder, after the start), while the
// application runs: each save asks for a reload.
func (ap *application) watch() {
	dir := ap.o.dir
	w, err := config.WatchWith(context.Background(), ap.path, ap.watchOptions(), ap.reload)
	if err != nil {
		ap.log.Printf("saves of the configuration are not followed: %v", err)
	} else {
		ap.watcher = w
	}
	if dir == "" {
		return
	}
	// Watched even when the folder has no .sidekicks yet: the watcher follows the nearest
	// existing parent, so a file created later is read as a save.
	project := filepath.Join(dir, config.ProjectFile)
	pw, err := config.WatchWith(context.Background(), project, ap.watchOptions(), ap.reload)
	if err != nil {
		ap.log.Printf("saves of %s are not followed: %v", project, err)
		return
	}
	ap.projectWatcher = pw
}

// reloader reads the configuration again for reload, on a goroutine of its own: neither
// the screen, nor the application's work queue, nor a watcher waits on a read, which
// config bounds in time (config.ReadTimeout) and gives up when the screen stops. Asks
// that come while a read runs merge into one more read after it, so that the last save is
// always read, and results are applied in the order they were read.
type reloader struct {
	mu      sync.Mutex
	running bool // a goroutine reads
	again   bool // asked while it reads: read once more
	// finished is closed when the goroutine that reads stops, every result posted.
	finished chan struct{}
}

// reload reads the configuration and the project agents file again (a save of either,
// Sidekicks ▸ Reload) and applies them. It may be called from any goroutine and returns
// at once.
func (ap *application) reload() {
	r := &ap.reloads
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running {
		r.again = true
		return
	}
	r.running = true
	r.finished = make(chan struct{})
	ap.app.GoNamed("configuration reload", ap.reloadLoop)
}

// reloadLoop reads until no reload is asked for any more, posting each result to the
// screen.
func (ap *application) reloadLoop() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// This goroutine only waits: nothing from outside reaches it, so it needs no guard.
	go func() {
		select {
		case <-ap.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	read := ap.o.reread
	if read == nil {
		read = loadConfiguration
	}
	r := &ap.reloads
	for {
		l := read(ctx, ap.path, ap.o.dir)
		if ctx.Err() == nil {
			ap.app.Post(func() { ap.apply(l) })
		}
		r.mu.Lock()
		if !r.again || ctx.Err() != nil {
			r.running = false
			close(r.finished)
			r.mu.Unlock()
			return
		}
		r.again = false
		r.mu.Unlock()
	}
}

// apply runs on the configuration just read. One with errors changes nothing: the
// running configuration is kept and the errors are shown with their lines. Otherwise it
// becomes the running one: language and theme, agents (new ones in the menus, changed ones
// at their next start, removed ones stopped), limits, and the declared channels created.
func (ap *application) apply(l loaded) {
	if ap.quitting {
		return
	}
	if l.cfg == nil {
		ap.log.Printf("reloading %s: %d errors, the running configuration is kept: %s", ap.path, len(errorsOnly(l.diags)), errorsOnly(l.diags).Error())
		ap.showErrors(catalogue.Text(ap.lang, msgErrorsKept, ap.path), l)
		ap.app.Flash(catalogue.Text(ap.lang, msgReloadKept))
		return
	}
	old := ap.cfg
	cfg := l.cfg
	ap.cfg, ap.cur = cfg, l
	if cfg.UI.Language != old.UI.Language {
		ap.lang = cfg.UI.Language
		ap.app.SetLanguage(cfg.UI.Language)
	}
	if cfg.UI.Theme != old.UI.Theme {
		ap.app.SetTheme(ap.theme(cfg.UI.Theme))
	}
	ap.showProjectRefusal(l)
	ap.refreshViews()
	ap.panelReloaded(cfg)
	added, removed := agentChanges(old, cfg)
	changed := restartedChanges(old, cfg)
	ap.log.Printf("reloaded %s: %d agents (new %q, removed %q), %d warnings", ap.path, len(cfg.Agents), added, removed, warningCount(l.diags))
	ap.work.Do(func() {
		ap.agents.SetAgents(ap.agentsWithSecrets(cfg.Agents))
		ap.agents.SetLimits(cfg.Limits.MaxRunningAgents, cfg.Limits.StopIdleAgentsAfter)
		var later []string // running agents whose changes wait for their next start
		for _, name := range changed {
			if ap.agents.Supervisor().State(name).Pid != 0 {
				later = append(later, name)
			}
		}
		created, _, err := ap.st.EnsureDeclared(cfg.Channels)
		chans, lerr := ap.st.Channels()
		ap.app.Post(func() {
			if err != nil {
				ap.log.Printf("creating the declared channels: %v", err)
			}
			ap.setChannels(chans, lerr)
			text := ap.reloadedText(l, added, removed, created)
			if len(later) > 0 && l.refused == nil && l.pending.Path == "" {
				// Said first: it is what the user must act on, and the rest may be cut.
				text = reloadText.Text(ap.lang, rNextStart, joinNames(later)) + " · " + text
			}
			ap.app.Flash(text)
		})
	})
}

// reloadedText is the status bar's message after a reload.
func (ap *application) reloadedText(l loaded, added, removed, created []string) string {
	parts := []string{catalogue.Text(ap.lang, msgReloaded)}
	first := ""
	if n := warningCount(l.diags); n > 0 {
		parts[0] = catalogue.Text(ap.lang, msgReloadedWithWarnings, config.WarningsText(ap.lang, n))
		first = firstWarning(l, ap.o.dir)
	}
	if l.refused != nil {
		// Said first, as below.
		parts[0] = ap.projectRefusedText()
	}
	if p := l.pending; p.Path != "" {
		// Said first: the status bar may cut what follows.
		parts[0] = config.NotAllowedText(ap.lang, len(p.Agents))
	}
	if len(added) > 0 {
		parts = append(parts, catalogue.Text(ap.lang, msgAgentsAdded, joinNames(added)))
	}
	if len(removed) > 0 {
		parts = append(parts, catalogue.Text(ap.lang, msgAgentsRemoved, joinNames(removed)))
	}
	if len(created) > 0 {
		for i, c := range created {
			created[i] = "#" + safetext.Line(c)
		}
		parts = append(parts, catalogue.Text(ap.lang, msgChannelsCreated, joinNames(created)))
	}
	if first != "" && l.refused == nil && l.pending.Path == "" {
		// The first warning itself, last: it is the longest, so that a narrow status bar
		// cuts only it; Agent status lists them all.
		parts = append(parts, catalogue.Text(ap.lang, msgReloadedFirstWarning, first))
	}
	return strings.Join(parts, " · ")
}

// firstWarning is the message of l's first warning, "" when l has none. A file of the
// folder dir it names (the project agents file) is named from dir, so that the status bar
// has room for what is wrong; Agent status gives the full lines.
func firstWarning(l loaded, dir string) string {
	for _, d := range l.diags {
		if !d.Warning {
			continue
		}
		msg := d.Message
		if rel, err := filepath.Rel(dir, d.File); dir != "" && d.File != "" && err == nil && filepath.IsLocal(rel) {
			msg = strings.ReplaceAll(msg, d.File, rel)
		}
		return safetext.Line(msg)
	}
	return ""
}

// agentChanges returns the agents of next that old lacks, and those of old that next lacks.
func agentChanges(old, next *config.Config) (added, removed []string) {
	for _, a := range next.Agents {
		if old.Agent(a.Name) == nil {
			added = append(added, a.Name)
		}
	}
	for _, a := range old.Agents {
		if next.Agent(a.Name) == nil {
			removed = append(removed, a.Name)
		}
	}
	return added, removed
}

// watchOptions are the options of the configuration's watchers: the screen's guard starts
// their goroutines.
func (ap *application) watchOptions() config.WatchOptions {
	return config.WatchOptions{Go: ap.app.GoNamed}
}

// restartedChanges returns the agents of both old and next whose process would start
// differently (command, arguments, environment, workspace, runtime): a running one keeps
// its process, and the change applies at its next start.
func restartedChanges(old, next *config.Config) []string {
	var out []string
	for _, a := range next.Agents {
		o := old.Agent(a.Name)
		if o == nil {
			continue
		}
		if o.Command != a.Command || o.CommandPath != a.CommandPath || !slices.Equal(o.Args, a.Args) ||
			!maps.Equal(o.Env, a.Env) || o.Workspace != a.Workspace || !reflect.DeepEqual(o.Runtime, a.Runtime) {
			out = append(out, a.Name)
		}
	}
	return out
}

type reloadMsg int

const rNextStart reloadMsg = iota

var reloadText = i18n.NewCatalogue[reloadMsg]([]string{
	rNextStart: "%s: settings changed; they apply at the next start (Restart in the Agents panel)",
}, []string{
	rNextStart: "%s : réglages modifiés ; ils s'appliquent au prochain démarrage (Redémarrer dans le panneau des agents)",
})
