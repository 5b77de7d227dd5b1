// Package window is everything on screen: the one goroutine that owns the terminal, the
// tiling window manager, the menu bar, dialogs, the status bar, widgets, themes and the
// labels in English and French.
//
// One goroutine (the one that calls App.Run) owns the screen and every window. Other
// goroutines never touch a window: they hand work over with App.Post, or ask for a
// redraw with App.Invalidate; neither blocks, and redraw requests merge. The loop handles
// every pending event, then draws once: at once after the user's input (a key, a paste, the
// mouse, a resize), at most 60 times a second for redraws asked by other goroutines. The
// user's input comes first: the frame for it is drawn before the posted work still queued.
package window

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"github.com/gdamore/tcell/v2"
)

// frameInterval is the shortest time between two frames (60 per second).
const frameInterval = time.Second / 60

// Options configures an App.
type Options struct {
	// Screen is where to draw; nil means the terminal (newTerminalScreen). Tests pass a
	// tcell.SimulationScreen.
	Screen tcell.Screen
	// Theme defaults to the dark theme.
	Theme *Theme
	// Language of every label.
	Language i18n.Lang
	// Now is the clock (spinners, fading messages); nil means time.Now.
	Now func() time.Time
}

// App is the screen: the event loop, the windows, the menu bar, the dialogs and the
// status bar. Its methods run on the UI goroutine unless their comment says otherwise.
type App struct {
	screen tcell.Screen
	theme  *Theme
	labels Labels
	now    func() time.Time

	// Handing work over from other goroutines.
	mu    sync.Mutex
	posts []post
	wake  chan struct{}
	dirty atomic.Bool

	quit     chan struct{}
	quitOnce sync.Once
	failed   chan struct{}
	failOnce sync.Once
	failErr  error
	finiOnce sync.Once
	// over is set, under endMu, once Run has returned (a failure can no longer reach
	// Run's caller).
	endMu sync.Mutex
	over  bool

	// UI state, owned by the UI goroutine.
	windows     []*Window
	focus       int
	maximised   bool
	menus       []*Menu
	menu        menuState
	builtin     builtinTexts
	dialogs     []*Dialog
	status      statusState
	paste       pasteState
	buttons     tcell.ButtonMask
	mouseTarget *Window
	desktop     Rect
	tooSmall    bool
	frames      uint64
	lastFrame   time.Time
	needSync    bool
	tcellSync   bool // the next Sync is tcell's (after Suspend), not the termWriter's
	// input is set when the user's input was handled since the last frame: that frame is
	// drawn at once, never held back to keep the frame rate, so that a key typed within a
	// frame's time of the last one (typing, a stream on screen) is not shown up to 16 ms late.
	input      bool
	inputFrame bool         // the frame being drawn is one for the user's input (InputFrame)
	lastInput  atomic.Int64 // when the user last gave input, in ns since the epoch (Typing)
	// gen counts the changes any window may show (markDirty); paintedGen is gen when the
	// last whole frame began: while they are equal, only the focused window has changed.
	gen        atomic.Uint64
	paintedGen uint64
	// flow counts the changes to what streams in (InvalidateFlow, PostFlow), which frames
	// drawn for a key leave for the next frame drawn for them: paintedFlow is flow when the
	// last such frame began that painted every window, lastFlow when the last one began that
	// painted one. flowFrom is the window the next one starts with: the one a frame that gave
	// way to a key had not painted yet, so that keys typed one after the other never keep the
	// same windows waiting.
	flow        atomic.Uint64
	paintedFlow uint64
	lastFlow    time.Time
	flowFrom    int
	frameStart  time.Time // when the frame being drawn began
	// ttyPastes holds the pastes the terminal's reader took whole (nil on another screen).
	ttyPastes *ttyPastes
	// terminal is the controlling terminal under screen (nil for a screen a test gives),
	// and term writes the frames' changed cells to it (termWriter), once the screen started.
	terminal  *terminal
	term      *termWriter
	syncs     []chan struct{}
	idlers    []chan struct{} // closed once the loop is idle (Idle)
	timer     *time.Timer
	timerAt   time.Time
	cursor    cursorState
	canvas    canvas             // what each cell of the screen holds
	events    <-chan tcell.Event // tcell's events, on their way to the loop (set by Run)
	stopQ     <-chan struct{}    // closed when the screen stops (set by Run)
	keyTimes  keyTimes           // the key waiting for its frame, for KeyTrace
	turn      LoopTurn           // this turn of the loop, and the last one, for KeyTrace
	lastTurn  LoopTurn
	ready     chan struct{} // closed once Run has started the screen
	clipboard string        // Sidekicks' own clipboard (SetClipboard)
	memory    *memoryReturn // gives memory back when the loop falls quiet (memory.go)
	// background is the work the loop does in slices between events and frames
	// (Background), in the order it was asked for; while the user types, the loop rests
	// between two slices (resting, until restTimer fires).
	background []func() bool
	restTimer  *time.Timer
	resting    bool
}

// New returns an App that draws on opts.Screen; call Run to start it.
func New(opts Options) (*App, error) {
	a := &App{
		screen: opts.Screen,
		theme:  opts.Theme,
		labels: NewLabels(opts.Language),
		now:    opts.Now,
		wake:   make(chan struct{}, 1),
		quit:   make(chan struct{}),
		failed: make(chan struct{}),
		focus:  -1,
		ready:  make(chan struct{}),
		memory: newMemoryReturn(),
	}
	if a.theme == nil {
		a.theme = darkTheme()
	}
	if a.now == nil {
		a.now = time.Now
	}
	if a.screen == nil {
		s, pastes, term, err := newTerminalScreen()
		if err != nil {
			return nil, err
		}
		a.screen, a.ttyPastes, a.terminal = s, pastes, term
	}
	a.timer = time.NewTimer(time.Hour)
	a.timer.Stop()
	a.restTimer = time.NewTimer(time.Hour)
	a.restTimer.Stop()
	return a, nil
}

// Labels returns the catalogue in the App's language.
func (a *App) Labels() Labels { return a.labels }

// Language is the language of the App's labels now (SetLanguage changes it).
func (a *App) Language() i18n.Lang { return a.labels.lang }

// T translates a label into the App's language.
func (a *App) T(l Label) string { return a.labels.T(l) }

// SetLanguage changes the language of every label (a reloaded configuration).
func (a *App) SetLanguage(lang i18n.Lang) {
	a.labels = NewLabels(lang)
	a.markDirty()
}

// SetTheme changes the colours.
func (a *App) SetTheme(t *Theme) {
	a.theme = t
	a.markDirty()
}

// Theme returns the current theme.
func (a *App) Theme() *Theme { return a.theme }

// Post hands f to the UI goroutine, which runs it soon, in the order posted. It never
// blocks and may be called from any goroutine; the queue has no bound, so a producer
// that can flood must merge its own work (the conversation model does, and only calls
// Invalidate).
func (a *App) Post(f func()) { a.post(post{f: f}) }

// PostFlow is Post for work that follows what streams in (a look at what an agent's
// chunks changed): what it changes is shown by the next frame drawn for what streams in,
// like what InvalidateFlow asks for, not by a frame drawn for a key. What it changes that
// must show at once, it invalidates itself.
func (a *App) PostFlow(f func()) { a.post(post{f: f, flow: true}) }

// post is a function handed to the UI goroutine; flow: by PostFlow.
type post struct {
	f    func()
	flow bool
}

func (a *App) post(p post) {
	a.mu.Lock()
	a.posts = append(a.posts, p)
	a.mu.Unlock()
	a.signal()
}

// Background asks the UI goroutine to call step, between events and frames, until it
// reports that nothing is left: each call does a slice of the work (a millisecond or so),
// so that a key typed meanwhile waits for that slice at most, and a frame due is drawn
// between two. Work that would otherwise be done a slice per frame (laying out what an
// agent flooded) goes on as fast as the loop is free. Call it from the UI goroutine only;
// a caller that may ask twice notes that it has asked, and the loop keeps each step as
// many times as it was asked.
func (a *App) Background(step func() bool) {
	a.background = append(a.background, step)
	a.signal()
}

// typingRest is how long the loop rests between two slices of background work while the
// user types, against the time the slices took: two, so that the work takes at most a third
// of a CPU meanwhile. During a flood, Sidekicks' threads used nearly both CPUs of a 2-core
// machine (reading the agent, laying out, collecting garbage) and waited as long to run as
// they ran; a key, and tmux's work for it, waited behind them: keys had a median of
// 1.2 ms and a p99 of 9.7 ms with no rest, 0.6 ms and 4.5 ms with this one (three runs of the
// responsiveness script each). Without keys nothing waits for the CPU: the work goes on at
// once.
const typingRest = 2

// runBackground does one slice of each background work, unless an event waits, and comes
// around again while some is left: at once (a signal), or after a rest while the user types
// (typingRest). Events, posted work and the frames due are looked at between two slices.
func (a *App) runBackground(events <-chan tcell.Event) {
	if len(a.background) == 0 || a.resting {
		return
	}
	start := time.Now()
	run := a.background
	a.background = nil // a step may ask for more
	var kept []func() bool
	for i, step := range run {
		if len(events) > 0 {
			kept = append(kept, run[i:]...)
			break
		}
		if step() {
			kept = append(kept, step)
		}
	}
	a.background = append(kept, a.background...)
	switch {
	case len(a.background) == 0:
	case a.Typing():
		a.resting = true
		a.restTimer.Reset(typingRest * time.Since(start))
	default:
		a.signal()
	}
}

// Invalidate asks for a redraw. It never blocks, may be called from any goroutine, and
// any number of calls before the next frame make one redraw.
func (a *App) Invalidate() {
	a.gen.Add(1) // what changed may be in any window
	if a.dirty.CompareAndSwap(false, true) {
		a.signal()
	}
}

// InvalidateFlow asks for a redraw of what streams in (an agent's text, and the rest of
// it a window has yet to lay out). It is drawn at the frame rate, at most typingFlowRate
// times a second while the user types (Typing), and never by a frame drawn for a key: a
// key shows at once, painting only its window, whatever floods the others. It never blocks
// and may be called from any goroutine.
func (a *App) InvalidateFlow() {
	a.flow.Add(1)
	if a.dirty.CompareAndSwap(false, true) {
		a.signal()
	}
}

func (a *App) signal() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// Quit makes Run return. It may be called from any goroutine.
func (a *App) Quit() {
	a.quitOnce.Do(func() { close(a.quit) })
}

// Recover, deferred at the top of a goroutine, turns a panic there into a restored
// terminal and an error returned by Run, instead of a terminal left in raw mode with the
// report lost in it. A panic before Run has started the screen stops Run as soon as it
// has; a panic once Run has returned, which nobody could report any more, goes on as a
// panic, the terminal restored, with the report (and the stack) as its value.
func (a *App) Recover() {
	if r := recover(); r != nil {
		a.fail(fmt.Errorf("window: panic: %v\n%s", r, debug.Stack()))
	}
}

// Go runs f on a new goroutine guarded by Recover.
func (a *App) Go(f func()) {
	go func() {
		defer a.Recover()
		f()
	}()
}

// GoNamed runs fn on a new goroutine guarded like Go's; the report of a panic there says
// name ("window: panic in acp reader alice: …"). It has the type of guard.Go, the starter
// the packages outside the screen take as an option, so that their goroutines run under
// this guard. It may be called from any goroutine, before Run too.
func (a *App) GoNamed(name string, fn func()) {
	go func() {
		defer a.recoverIn(name)
		fn()
	}()
}

// recoverIn is Recover for a goroutine started by GoNamed.
func (a *App) recoverIn(name string) {
	if r := recover(); r != nil {
		a.fail(fmt.Errorf("window: panic in %s: %v\n%s", name, r, debug.Stack()))
	}
}

// fail stops Run on a goroutine's panic: it hands err to Run, which returns it after
// restoring the terminal on the UI goroutine (never from this one, which would race with
// a frame being drawn). Once Run has returned, the terminal is restored already and err
// goes on as a panic.
func (a *App) fail(err error) {
	a.endMu.Lock()
	over := a.over
	if !over {
		a.failOnce.Do(func() {
			a.failErr = err
			close(a.failed)
		})
	}
	a.endMu.Unlock()
	if over {
		panic(err)
	}
}

func (a *App) fini() { a.finiOnce.Do(a.screen.Fini) }

// ErrFailed wraps the error Run returns after a panic.
var ErrFailed = errors.New("the screen stopped on a panic")

// Run starts the screen and handles events until Quit, then restores the terminal. A
// panic on the UI goroutine or in a goroutine guarded by Recover restores the terminal
// first and comes back as an error holding the stack, for the caller's log file.
func (a *App) Run() (err error) {
	defer func() {
		a.endMu.Lock()
		a.over = true
		a.endMu.Unlock()
		// A goroutine's panic that came while Run was returning.
		if failed := a.stopped(); failed != nil && !errors.Is(err, ErrFailed) {
			err = errors.Join(failed, err)
		}
	}()
	if err := a.screen.Init(); err != nil {
		return fmt.Errorf("starting the screen: %w", err)
	}
	defer a.fini()
	defer func() {
		if r := recover(); r != nil {
			a.fini()
			err = fmt.Errorf("%w: %v\n%s", ErrFailed, r, debug.Stack())
		}
	}()
	a.screen.EnablePaste()
	a.screen.EnableMouse(tcell.MouseButtonEvents | tcell.MouseDragEvents)
	a.screen.HideCursor()
	if a.terminal != nil {
		a.term = newTermWriter(a.screen, a.terminal.tty, a.terminal.ti)
	}
	events, stopQ := a.queues()
	a.events = events
	a.markDirty()
	close(a.ready)
	defer a.memory.stop()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return a.stopped()
			}
			a.handle(ev)
		case <-stopQ:
			return a.stopped()
		case <-a.wake:
		case <-a.restTimer.C:
			a.resting = false
		case <-a.timer.C:
			a.timerAt = time.Time{}
			if a.anyBusy() || a.waiting() {
				a.markDirty() // a spinner's step, in any window
			} else {
				// The frame put off to keep 60 a second, or the status bar's message
				// ending: what the windows show changed with what asked for the frame.
				a.dirty.Store(true)
			}
			// Keep the next wake-up scheduled at every moment while something moves, not
			// only once the coming frame is drawn (which may be put off).
			a.scheduleTimers()
		case <-a.quit:
			return nil
		case <-a.failed:
			return a.stopped()
		}
		a.traceTurn(0)
		if done := a.drain(events); done {
			return a.stopped()
		}
		a.traceTurn(1)
		a.maybeDraw()
		a.traceTurn(2)
		a.runBackground(events)
		a.releaseIdle()
		a.memory.active()
	}
}

// markDirty asks for a frame that paints every window: something changed that any of them
// may show.
func (a *App) markDirty() {
	a.gen.Add(1)
	a.dirty.Store(true)
}

// tcellQueues is what tcell's screens have beside the Screen interface: their own queue of
// events and the channel closed when they stop.
type tcellQueues interface {
	EventQ() chan tcell.Event
	StopQ() <-chan struct{}
}

// queues returns the channel the loop reads events from and the one closed when the
// screen stops. It is tcell's own queue when the screen gives it: a key then reaches the
// loop one goroutine hand-off sooner than through ChannelEvents, which only copies that
// queue into another channel (a wake-up of a sleeping thread, on an idle machine, is a
// good part of a key's echo).
func (a *App) queues() (<-chan tcell.Event, <-chan struct{}) {
	if q, ok := a.screen.(tcellQueues); ok {
		a.stopQ = q.StopQ()
		return q.EventQ(), a.stopQ
	}
	events := make(chan tcell.Event, 128)
	stop := make(chan struct{})
	a.stopQ = stop
	go func() {
		a.screen.ChannelEvents(events, nil)
		close(stop) // ChannelEvents closes events when the screen stops
	}()
	return events, stop
}

// stopped is what Run returns once the screen's events have stopped: the failure that
// stopped them, if any.
func (a *App) stopped() error {
	select {
	case <-a.failed:
		return fmt.Errorf("%w: %w", ErrFailed, a.failErr)
	default:
		return nil
	}
}

// drain handles what else is pending, the user's input first: every event already in
// tcell's queue (a paste arrives as hundreds) is handled before any posted work, and once
// input was handled drain returns, so that the frame for it is drawn before the posted work
// still queued, which the next turns of the loop run. Posted work runs one function at a
// time, the queue looked at between two: a key that arrives behind thousands of posted
// functions waits for one of them, not for all. Work posted meanwhile joins the queue, so
// a batch of it makes one frame. It stops after a bounded amount, so a flood still lets
// frames through.
func (a *App) drain(events <-chan tcell.Event) (closed bool) {
	for i := 0; i < 4096; i++ {
		if a.takeEvents(events) {
			return true
		}
		if a.input {
			break
		}
		if !a.runPosts(events) {
			return false
		}
	}
	// Posted work left for the next turn of the loop, which must not wait for a wake-up.
	if a.postsPending() {
		a.signal()
	}
	return false
}

// maxEventsPerTurn bounds the events one turn of the loop handles (a paste arrives as
// hundreds), so that a flood of them still lets frames through.
const maxEventsPerTurn = 4096

// takeEvents handles the events already in tcell's queue, without waiting for more.
func (a *App) takeEvents(events <-chan tcell.Event) (closed bool) {
	for i := 0; i < maxEventsPerTurn; i++ {
		select {
		case ev, ok := <-events:
			if !ok {
				return true
			}
			a.handle(ev)
		case <-a.stopQ:
			return true
		default:
			return false
		}
	}
	return false
}

// runPosts runs the posted work, in the order posted, until none is left or an event
// arrives: it then puts what it has not run back at the head of the queue, before what
// was posted meanwhile, and reports true, for drain to handle the event first.
func (a *App) runPosts(events <-chan tcell.Event) (more bool) {
	a.mu.Lock()
	posts := a.posts
	a.posts = nil
	a.mu.Unlock()
	if len(posts) == 0 {
		return false
	}
	for i, p := range posts {
		posts[i] = post{} // what has run may be collected
		if p.flow {
			a.flow.Add(1)
			a.dirty.Store(true)
		} else {
			a.markDirty()
		}
		p.f()
		if len(events) > 0 && i+1 < len(posts) {
			a.mu.Lock()
			a.posts = append(posts[i+1:len(posts):len(posts)], a.posts...)
			a.mu.Unlock()
			return true
		}
	}
	return a.postsPending()
}

// postsPending reports whether posted work is waiting.
func (a *App) postsPending() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.posts) > 0
}

// wakeAt makes the loop wake up at t (the next frame, a spinner step, a message's end).
func (a *App) wakeAt(t time.Time) {
	if !a.timerAt.IsZero() && !t.Before(a.timerAt) {
		return
	}
	a.timerAt = t
	a.timer.Reset(max(time.Until(t), 0))
}

// maybeDraw draws a frame when one was asked for and the last one is old enough. A frame
// for what streams in that is due is drawn even while keys keep coming, right after the
// frame for the key (it gives way to the next key once it has painted a window), and what
// frames drawn for keys held back is sent once no key waits (sendHeld).
func (a *App) maybeDraw() {
	if a.dirty.Load() || len(a.syncs) > 0 {
		if len(a.syncs) == 0 && !a.input {
			next := a.lastFrame.Add(frameInterval)
			if a.gen.Load() == a.paintedGen {
				// Only what streams in changed: paced by the frames drawn for it, which
				// the frames drawn for keys do not put off, fewer while the user types.
				next = a.lastFlow.Add(a.flowInterval())
			}
			if time.Now().Before(next) {
				a.wakeAt(next)
				a.sendHeld()
				return
			}
		}
		a.dirty.Store(false)
		input := a.input
		a.inputFrame, a.input = input, false
		a.lastFrame = time.Now()
		a.drawTraced()
		a.inputFrame = false
		for _, c := range a.syncs {
			close(c)
		}
		a.syncs = nil
		if input && a.flowDue() {
			a.dirty.Store(false)
			a.draw()
		}
	}
	a.sendHeld()
}

// flowDue reports whether a frame for what streams in is due: something streamed in since
// the last one, which is at least flowInterval old.
func (a *App) flowDue() bool {
	return a.flow.Load() != a.paintedFlow && !time.Now().Before(a.lastFlow.Add(a.flowInterval()))
}

// sendHeld sends the terminal what a frame painted and the frames drawn for keys since
// held back (canvas.hold), once no event waits: a stream's window painted by a frame that
// gave way to a key reaches the terminal between two keys, not with one.
func (a *App) sendHeld() {
	if !a.canvas.waiting() || len(a.events) > 0 || a.needSync {
		return
	}
	traceFrame(FrameStart, 0)
	traceFrame(FramePainted, 0)
	a.canvas.hold = a.canvas.hold[:0]
	sent := a.canvas.flush()
	traceFrame(FrameFlushed, sent)
	a.show()
	traceFrame(FrameShown, 0)
}

// show sends the terminal the cells the canvas changed: the termWriter when it can, else
// tcell's Show.
func (a *App) show() {
	if !a.term.write(&a.canvas, a.cursor) {
		a.term.retell(&a.canvas)
		a.screen.Show()
		a.term.drawn()
	}
}

// syncRequest is the marker Drawn puts in the screen's own queue: once it is handled,
// every event put there before it has been handled, and the next frame is drawn at once.
type syncRequest chan struct{}

// idleRequest is the marker Idle puts in the screen's own queue: once it is handled, every
// event put there before it has been handled, and its channel is closed when the loop is
// next idle (releaseIdle).
type idleRequest chan struct{}

// Drawn puts a marker in the screen's event queue, after every event put there before it,
// and returns a channel closed once the loop has handled all of them and drawn a frame
// after them (at once, without waiting for the next frame's time). Work posted from other
// goroutines meanwhile is not waited for: Idle is for that. It waits for room in the
// queue, as tcell's PostEventWait does, so call it from any goroutine but the UI one. It is
// a barrier for tests and benchmarks that put events in the screen's queue themselves.
func (a *App) Drawn() <-chan struct{} {
	c := make(chan struct{})
	a.screen.PostEventWait(tcell.NewEventInterrupt(syncRequest(c)))
	return c
}

// Idle puts a marker in the screen's event queue, after every event put there before it,
// and returns a channel closed once the loop has handled all of them and is idle: no
// posted work is pending, no redraw is asked for, and the frame after them has been shown.
// What the screen shows then stays until something new arrives (an event, posted work, a
// redraw asked for, a timer). It waits for room in the queue, as tcell's PostEventWait
// does, so call it from any goroutine but the UI one. Tests use it as the barrier before
// comparing the screen with a golden file.
func (a *App) Idle() <-chan struct{} {
	c := make(chan struct{})
	a.screen.PostEventWait(tcell.NewEventInterrupt(idleRequest(c)))
	return c
}

// releaseIdle closes the channels of Idle once the loop is idle: no posted work pending,
// no background work left (Background) and nothing left to draw. A frame put off to keep
// the frame rate has left the timer set, and posted work has woken the loop, so the loop
// comes back here until it is idle.
func (a *App) releaseIdle() {
	if len(a.idlers) == 0 || a.dirty.Load() || len(a.syncs) > 0 || len(a.background) > 0 {
		return
	}
	if a.postsPending() {
		return
	}
	for _, c := range a.idlers {
		close(c)
	}
	a.idlers = nil
}

func (a *App) handle(ev tcell.Event) {
	if k, ok := ev.(*tcell.EventKey); ok && a.paste.active {
		// A pasted key only joins the paste's text: nothing on screen changes until the
		// paste ends, so it asks for no frame. Drawing one (at once, as for a typed key)
		// per read of the terminal made a 1 MB paste cost thousands of full frames, the
		// keys typed after it waiting behind them for seconds.
		a.paste.key(k)
		return
	}
	// A key the focused window takes changes that window only (handleKey says when it does
	// more), and a barrier of Drawn or Idle changes none; any other event may change them all.
	switch ev := ev.(type) {
	case *tcell.EventKey:
		a.dirty.Store(true)
	case *tcell.EventInterrupt:
		switch ev.Data().(type) {
		case syncRequest, idleRequest:
			a.dirty.Store(true)
		default:
			a.markDirty()
		}
	default:
		a.markDirty()
	}
	switch ev.(type) {
	case *tcell.EventResize, *tcell.EventPaste, *tcell.EventKey, *tcell.EventMouse:
		a.input = true
		a.lastInput.Store(time.Now().UnixNano())
	}
	switch ev := ev.(type) {
	case *tcell.EventResize:
		a.needSync = true
	case *tcell.EventPaste:
		if ev.Start() {
			a.paste.start()
		} else if text, dropped, ok := a.endPaste(); ok {
			a.handlePaste(text)
			if dropped > 0 {
				a.Flash(fmt.Sprintf(a.T(LabelPasteCut), MaxPaste>>20, dropped))
			}
		}
	case *tcell.EventKey:
		a.traceKey(ev)
		if k, ok := keyFromTcell(ev); ok {
			a.handleKey(k)
		}
	case *tcell.EventMouse:
		a.handleMouse(ev)
	case *tcell.EventInterrupt:
		switch c := ev.Data().(type) {
		case syncRequest:
			a.syncs = append(a.syncs, c)
		case idleRequest:
			a.idlers = append(a.idlers, c)
		}
	}
}

// InputFrame reports, while a frame is drawn, whether it is drawn at once for the user's
// input (a key, a paste, the mouse, a resize). A widget with work it may spread over frames
// (laying out what an agent sent) puts it off to the next frame, so that the key shows
// first; it asks for that frame with Invalidate.
func (a *App) InputFrame() bool { return a.inputFrame }

// InputWaiting reports whether an event (a key, a paste, the mouse, a resize) waits in the
// screen's queue: work cut in slices (Background) stops its slice early for it.
func (a *App) InputWaiting() bool { return len(a.events) > 0 }

// typingFlowRate is how many frames a second show what streams in while the user types:
// fewer frames that a key may find being drawn, and less for the terminal to take in.
const typingFlowRate = 20

// flowInterval is the least time between two frames drawn for what streams in.
func (a *App) flowInterval() time.Duration {
	if a.Typing() {
		return time.Second / typingFlowRate
	}
	return frameInterval
}

// typingWindow is how recent the user's last input must be for Typing.
const typingWindow = 250 * time.Millisecond

// Typing reports whether the user gave input (a key, a paste, the mouse, a resize) in the
// last quarter of a second: the frames drawn meanwhile for other work keep short, so that
// the next key does not wait for them. Any goroutine may call it.
func (a *App) Typing() bool {
	return time.Since(time.Unix(0, a.lastInput.Load())) < typingWindow
}

// ReaderRest is how long a goroutine that takes in what agents send (an ACP connection's
// reader) rests after busy of work without a wait for the agent, while the user types
// (Typing): twice as long, so that a flooding agent takes a third of a CPU meanwhile, the
// keys the rest (the agent waits on its own pipe), but never more than maxReaderRest; nothing
// otherwise. Any goroutine may call it.
func (a *App) ReaderRest(busy time.Duration) time.Duration {
	if !a.Typing() {
		return 0
	}
	return min(typingRest*busy, maxReaderRest)
}

// maxReaderRest bounds a reader's rest: what it counts as busy includes the waits inside its
// work (for a free slot when the agent asks more than the dialogs shown can hold), and a
// reader that had waited seconds for the user then rested twice as long, the agent's next
// messages unread meanwhile (an e2e test of fifty questions timed out on it, under load).
const maxReaderRest = 4 * time.Millisecond

// SetClipboard puts text in Sidekicks' own clipboard (what Shift-Ins pastes) and in the
// system's, through the terminal (OSC 52, which tcell writes with the next output). Nothing
// tells whether the terminal accepted the second: the first holds the text in any case.
func (a *App) SetClipboard(text string) {
	a.clipboard = text
	a.screen.SetClipboard([]byte(text))
}

// Clipboard returns what Sidekicks' own clipboard holds.
func (a *App) Clipboard() string { return a.clipboard }

// Bell rings the terminal's bell (a window not in front wants attention).
func (a *App) Bell() { _ = a.screen.Beep() }

// Now is the App's clock (Options.Now): widgets measure what they wait for with it, so
// that tests can move it.
func (a *App) Now() time.Time { return a.now() }

// SpinnerFrame returns the spinner's frame for now, from the App's clock: a widget that
// draws its own spinner (an agent window's rule) turns in phase with the frames'. The
// loop redraws at each step while a visible window is Busy.
func (a *App) SpinnerFrame() string { return spinnerFrame(a.now()) }

// DrawFrame draws one whole frame now. It is for benchmarks and tests of widgets in other
// packages, on a screen the caller has initialised, with no Run loop drawing meanwhile (or
// on the UI goroutine).
func (a *App) DrawFrame() { a.draw() }
