package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"git.rickub.com/bots-garden/sidekicks/guard"
)

// DefaultDebounce is how long a watched file must stay quiet before a change is reported:
// an editor's save is a burst of events (write a temporary file, rename it, change its
// mode), reported once.
const DefaultDebounce = 100 * time.Millisecond

// WatchOptions tunes a Watcher.
type WatchOptions struct {
	// Debounce is how long the file must stay quiet after an event before the change is
	// reported; 0 means DefaultDebounce.
	Debounce time.Duration
	// Go starts the watcher's goroutine ("config watcher <path>"), which calls onChange.
	// Nil starts it with a plain go statement; the application passes a guard that
	// restores the terminal and logs a panic.
	Go guard.Go

	// observe, for tests, sees each event of the watched folders with whether it counts.
	observe func(name string, counted bool)
}

// Watcher reports each save of one file. It watches the file's folder rather than the
// file, because editors save by writing a temporary file and renaming it over the
// original (the file is then a new one), or by removing and creating it: every such event
// on the file's name counts, and a burst of them gives one report, once the file exists
// again. Events for other files of the folder are ignored. A folder that does not exist
// yet is waited for: its nearest existing parent is watched, and each folder on the way
// down as it is created, so that a file created later in it is reported; a watched folder
// removed is waited for again the same way.
type Watcher struct {
	fs   *fsnotify.Watcher
	path string
	// watching is the folder watched for path: its own folder, or while that does not
	// exist the nearest parent that does.
	watching string
	names    map[string]bool // the paths whose events count: path, and its target if it is a link
	debounce time.Duration
	onChange func(ctx context.Context)
	observe  func(name string, counted bool)

	// ctx is done once Close is called: a read onChange makes with it gives up then.
	ctx       context.Context
	cancel    context.CancelFunc
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

// NewWatcher starts watching path and calls onChange, from the watcher's own goroutine,
// after each save. onChange must not call Close, and should return quickly: Close waits
// for it.
func NewWatcher(path string, opts WatchOptions, onChange func()) (*Watcher, error) {
	return newWatcher(path, opts, func(context.Context) { onChange() })
}

// newWatcher is NewWatcher with an onChange given a context that is done once Close is
// called, so that a read it makes never holds Close up.
func newWatcher(path string, opts WatchOptions, onChange func(ctx context.Context)) (*Watcher, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", path, err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching %s: %w", path, err)
	}
	w := &Watcher{
		fs:       fsw,
		path:     abs,
		names:    map[string]bool{abs: true},
		debounce: opts.Debounce,
		onChange: onChange,
		observe:  opts.observe,
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	if w.debounce <= 0 {
		w.debounce = DefaultDebounce
	}
	var folders []string
	// A configuration kept elsewhere and linked to (a dotfiles repository) is saved
	// where the link points: watch there too.
	if target, err := filepath.EvalSymlinks(abs); err == nil && target != abs {
		w.names[target] = true
		folders = append(folders, filepath.Dir(target))
	}
	err = w.descend()
	for _, dir := range folders {
		if err == nil {
			err = fsw.Add(dir)
		}
	}
	if err != nil {
		fsw.Close()
		w.cancel()
		return nil, fmt.Errorf("watching %s: %w", path, err)
	}
	opts.Go.Start("config watcher "+abs, w.run)
	return w, nil
}

// Close stops the watcher and waits until onChange is no longer running.
func (w *Watcher) Close() error {
	var err error
	w.closeOnce.Do(func() {
		w.cancel()
		close(w.stop)
		<-w.done
		err = w.fs.Close()
	})
	return err
}

// maxDescents bounds the looks descend takes again when a folder goes away under it.
const maxDescents = 64

// descend watches the deepest existing folder on the way to the file's folder, instead
// of the one watched so far, and tells whether it is the file's folder. It goes on down
// while folders appear, so a folder created while it looked is not missed.
func (w *Watcher) descend() error {
	want := filepath.Dir(w.path)
	for tries := 0; w.watching != want; tries++ {
		dir := want
		for {
			if info, err := os.Stat(dir); err == nil && info.IsDir() {
				break
			}
			up := filepath.Dir(dir)
			if up == dir {
				return fmt.Errorf("no folder of %s exists", w.path)
			}
			dir = up
		}
		if dir == w.watching {
			return nil
		}
		if err := w.fs.Add(dir); err != nil {
			// The folder went away between the look and the watch (its removal still
			// under way): look again from where it was, up. Before, nothing was watched
			// from then on, and the folders made again and the file in them went unseen.
			if errors.Is(err, fs.ErrNotExist) && tries < maxDescents {
				continue
			}
			return err
		}
		if w.watching != "" {
			_ = w.fs.Remove(w.watching) // may be gone already
		}
		w.watching = dir
	}
	return nil
}

// onTheWay tells whether name is a folder between the one watched and the file's folder
// (included): its creation lets the watch go down.
func (w *Watcher) onTheWay(name string) bool {
	want := filepath.Dir(w.path)
	if w.watching == want {
		return false
	}
	return filepath.Dir(name) == w.watching && (name == want || strings.HasPrefix(want, name+string(filepath.Separator)))
}

func (w *Watcher) run() {
	defer close(w.done)
	timer := time.NewTimer(w.debounce)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-w.stop:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			counted := w.names[filepath.Clean(ev.Name)] && ev.Op&(fsnotify.Create|fsnotify.Write|fsnotify.Rename|fsnotify.Remove) != 0
			if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 && filepath.Clean(ev.Name) == w.watching {
				// The watched folder went away, and its watch with it: wait again
				// from the nearest folder that is left.
				w.watching = ""
				_ = w.descend()
			}
			if ev.Op&fsnotify.Create != 0 && w.onTheWay(filepath.Clean(ev.Name)) {
				// A missing folder appeared (created, or moved in): go down, and look
				// for the file, which may have been written before the watch got there.
				if err := w.descend(); err == nil && w.watching == filepath.Dir(w.path) {
					if _, err := os.Stat(w.path); err == nil {
						counted = true
					}
				}
			}
			if counted {
				timer.Reset(w.debounce)
			}
			if w.observe != nil {
				w.observe(ev.Name, counted)
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			// Lost events may have been a save: look again.
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				timer.Reset(w.debounce)
			}
		case <-timer.C:
			// A file removed and not (yet) created again is not a save: the next
			// event will tell. The look is bounded as a read is (see bounded): a
			// folder that stopped answering does not hold Close up.
			if err := bounded(w.ctx, w.path, func() error { _, err := os.Stat(w.path); return err }); w.ctx.Err() == nil && (err == nil || !errors.Is(err, fs.ErrNotExist)) {
				w.onChange(w.ctx)
			}
		}
	}
}

// Watch is WatchWith with the default options.
func Watch(ctx context.Context, path string, onChange func()) (*Watcher, error) {
	return WatchWith(ctx, path, WatchOptions{}, onChange)
}

// WatchWith starts watching the file at path (see Watcher) and returns once the watch is
// in place, or with an error when the file's folder cannot be watched. onChange is called
// after each save until ctx is done or the Watcher is closed.
func WatchWith(ctx context.Context, path string, opts WatchOptions, onChange func()) (*Watcher, error) {
	return watchWith(ctx, path, opts, func(context.Context) { onChange() })
}

// watchWith is WatchWith with newWatcher's onChange.
func watchWith(ctx context.Context, path string, opts WatchOptions, onChange func(context.Context)) (*Watcher, error) {
	w, err := newWatcher(path, opts, onChange)
	if err != nil {
		return nil, err
	}
	// This goroutine only waits, then closes the watcher: nothing from outside reaches
	// it, so it needs no guard.
	go func() {
		select {
		case <-ctx.Done():
			w.Close()
		case <-w.stop:
		}
	}()
	return w, nil
}

// WatchConfig is WatchConfigWith with the default options.
func WatchConfig(ctx context.Context, path string, onReload func(*Config, Diagnostics)) (*Watcher, error) {
	return WatchConfigWith(ctx, path, WatchOptions{}, onReload)
}

// WatchConfigWith loads the configuration at path again after each save and gives the
// result to onReload, from the watcher's goroutine, until ctx is done or the Watcher is
// closed (see WatchWith). When the Diagnostics have errors the Config is nil: the caller
// keeps the configuration it had, and shows the errors; warnings alone come with a usable
// Config. A read that is blocked (see readBounded) is given up when the Watcher is closed.
func WatchConfigWith(ctx context.Context, path string, opts WatchOptions, onReload func(*Config, Diagnostics)) (*Watcher, error) {
	return watchWith(ctx, path, opts, func(ctx context.Context) {
		cfg, diags, _ := LoadContext(ctx, path)
		onReload(cfg, diags)
	})
}
