package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/jobs"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/store"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/chatwin"
)

// This file is Sidekicks ▸ Search history…: a dialog over the history's full-text index
// (store.Search), whose hits open their conversation at the entry found.

// searchRows is the most rows of hits the dialog shows at once; a hit takes hitRows: where,
// when and who on the first, the snippet on the second.
const (
	searchRows = 16
	hitRows    = 2
)

// searchTop is the row of the dialog's inside where the hits start: below the field and a
// blank row.
const searchTop = 2

// historySearch is the dialog's content; its fields belong to the screen's goroutine,
// except latest, which the searches read to give up when a newer one was asked.
type historySearch struct {
	ap     *application
	dialog *window.Dialog
	field  *window.Input

	latest    atomic.Int64       // the search whose answer is awaited
	cancel    context.CancelFunc // gives up the search under way, if any
	searching bool
	failed    bool
	query     string // of the hits listed
	hits      []store.Hit
	sel, top  int
	height    int // the hits shown at the last frame
	now       time.Time
}

// showSearch opens Search history (Sidekicks ▸ Search history…).
func (ap *application) showSearch() {
	s := &historySearch{ap: ap, field: window.NewInput(), now: ap.now()}
	s.field.OnChange = s.search
	s.dialog = ap.app.OpenDialog(searchCatalogue.Text(ap.lang, fmsgSearchTitle), s, func() {
		s.latest.Add(1) // an answer under way is of no use now
		s.giveUp()
	})
}

// searchHistory is the search the dialog runs: a variable so that a test can make it slow.
var searchHistory = (*store.Store).SearchContext

// searches runs the searches of Search history, on a queue of their own rather than on the
// application's work, so that a slow one holds back neither the history's writes nor
// quitting; each has a context that a newer search, the dialog closing and quitting cancel,
// which interrupts SQLite.
type searches struct {
	mu      sync.Mutex
	queue   *jobs.Queue
	ctx     context.Context // cancelled by stop
	stop    context.CancelFunc
	stopped bool
}

// beginSearch returns the context of a new search, and false once the searches have stopped.
func (ap *application) beginSearch() (context.Context, context.CancelFunc, *jobs.Queue, bool) {
	ss := &ap.searches
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.stopped {
		return nil, nil, nil, false
	}
	if ss.queue == nil {
		ss.queue = jobs.New(jobs.Options{Name: "history search", Go: ap.app.GoNamed})
		ss.ctx, ss.stop = context.WithCancel(context.Background())
	}
	ctx, cancel := context.WithCancel(ss.ctx)
	return ctx, cancel, ss.queue, true
}

// stopSearches cancels every search under way and waits for them to give up; no search
// starts after. Quitting calls it before closing the history.
func (ap *application) stopSearches() {
	ss := &ap.searches
	ss.mu.Lock()
	ss.stopped = true
	q, stop := ss.queue, ss.stop
	ss.mu.Unlock()
	if q == nil {
		return
	}
	stop()
	q.Close()
}

// giveUp cancels the search under way, if any.
func (s *historySearch) giveUp() {
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
}

// search asks the history for the words typed, on the searches' queue; a newer search
// cancels an older one, whose answer is dropped.
func (s *historySearch) search() {
	gen := s.latest.Add(1)
	s.giveUp()
	q := s.field.Text()
	if strings.TrimSpace(q) == "" {
		s.searching, s.failed, s.hits, s.query = false, false, nil, ""
		return
	}
	st, ap := s.ap.st, s.ap
	if st == nil { // no history (some tests): nothing to search
		s.searching, s.failed, s.hits, s.query = false, true, nil, q
		return
	}
	ctx, cancel, queue, ok := ap.beginSearch()
	if !ok { // quitting
		return
	}
	s.searching, s.cancel = true, cancel
	queue.Do(func() {
		defer cancel()
		if ctx.Err() != nil {
			return
		}
		hits, err := searchHistory(st, ctx, q, store.DefaultSearchLimit)
		if errors.Is(err, context.Canceled) {
			return // a newer search, or none, is awaited
		}
		if err != nil {
			ap.log.Printf("%v", err)
		}
		ap.app.Post(func() { s.found(gen, q, hits, err != nil) })
	})
}

// found shows the answer of a search, if it is the one awaited.
func (s *historySearch) found(gen int64, q string, hits []store.Hit, failed bool) {
	if gen != s.latest.Load() || !s.dialog.Open() {
		return
	}
	s.searching, s.failed, s.query, s.hits = false, failed, q, hits
	s.sel, s.top, s.now = 0, 0, s.ap.now()
}

// open closes the dialog and opens the conversation of the highlighted hit at its entry.
func (s *historySearch) open() {
	if s.sel < 0 || s.sel >= len(s.hits) {
		return
	}
	h := s.hits[s.sel]
	s.dialog.Close()
	s.ap.openAt(h, hitMatch(h, s.query))
}

// hitMatch is the text the window looks for in a hit's entry to show the line holding it:
// the first word marked in the snippet, else (a match beyond the part of a huge entry the
// snippet reads) the first word of the query.
func hitMatch(h store.Hit, query string) string {
	if len(h.Marks) > 0 && h.Marks[0][0] >= 0 && h.Marks[0][0] < h.Marks[0][1] && h.Marks[0][1] <= len(h.Snippet) {
		return h.Snippet[h.Marks[0][0]:h.Marks[0][1]]
	}
	for _, w := range strings.Fields(query) {
		if w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }); w != "" {
			return strings.ToLower(w)
		}
	}
	return ""
}

// openAt opens (or brings to the front) the window of a hit's conversation and shows its
// entry there, at its first line holding match when match is not "".
func (ap *application) openAt(h store.Hit, match string) {
	var w *appWindow
	if h.Channel != 0 {
		if _, ok := ap.channelByID(h.Channel); !ok {
			ap.app.Flash(searchCatalogue.Text(ap.lang, fmsgChannelGone))
			return
		}
		ap.openChannel(h.Channel)
		w = ap.find(winChannel, h.Channel, "")
	} else {
		ap.openAgent(h.Agent)
		w = ap.find(winAgent, 0, h.Agent)
	}
	if w == nil {
		return // too many windows: the manager said so
	}
	widget := w.chanWin
	if w.agentWin != nil {
		widget = w.agentWin.widget
	}
	if widget == nil {
		return
	}
	w.win.Focus()
	ref := chatwin.EntryRef{ID: h.EntryID, Kind: h.Kind, Author: h.Author, Created: h.Time, Match: match}
	widget.ShowEntry(ref, func(found bool) {
		if !found {
			ap.app.Flash(searchCatalogue.Text(ap.lang, fmsgEntryGone))
		}
	})
}

// Size, Draw, HandleEvent and Hints make the search a window.DialogContent.

func (s *historySearch) Size(_ window.Labels, maxW, maxH int) (int, int) {
	return maxW, searchTop + max(min(maxH-searchTop-1, searchRows), 1) + 1
}

func (s *historySearch) Draw(r window.Region, _ window.Labels) {
	W, H := r.Size()
	lang := s.ap.lang
	r.Fill(window.ClassDialog)
	n := r.Text(0, 0, searchCatalogue.Text(lang, fmsgSearchField)+" ", window.ClassDialog)
	s.field.Draw(r.Sub(n, 0, W-n, 1), true)
	s.height = max(H-searchTop-1, 0) / hitRows
	s.top = window.ScrollToShow(s.top, s.sel, s.height, len(s.hits))
	for y := 0; y < s.height && s.top+y < len(s.hits); y++ {
		i := s.top + y
		s.drawHit(r.Sub(0, searchTop+y*hitRows, W, hitRows), s.hits[i], i == s.sel)
	}
	foot, class := s.foot(), window.ClassDialog
	if s.failed {
		class = window.ClassDialogError
	}
	r.Line(H-1, window.Truncate(foot, W), class)
}

// foot is what the last row says: what to do, what is under way, how many were found.
func (s *historySearch) foot() string {
	lang := s.ap.lang
	switch {
	case s.failed:
		return searchCatalogue.Text(lang, fmsgSearchFailed)
	case s.searching:
		return searchCatalogue.Text(lang, fmsgSearching)
	case s.query == "":
		return searchCatalogue.Text(lang, fmsgSearchHint)
	case len(s.hits) == 0:
		return searchCatalogue.Text(lang, fmsgSearchNone)
	case len(s.hits) >= store.DefaultSearchLimit:
		return searchCatalogue.Text(lang, fmsgSearchMax, len(s.hits))
	}
	return searchCatalogue.Text(lang, fmsgSearchCount, len(s.hits))
}

// drawHit draws one hit on its two rows: where, when and who, then the snippet with its
// matches marked, started closer to the first match when that one would not show.
func (s *historySearch) drawHit(r window.Region, h store.Hit, selected bool) {
	W, _ := r.Size()
	text, mark := window.ClassDialog, window.ClassMenuMnemonic
	if selected {
		text, mark = window.ClassListSelected, window.ClassMenuMnemonicSelected
	}
	r.Fill(text)
	head := " " + s.ap.hitPlace(h) + "  " + hitTime(h.Time, s.now) + "  " + s.ap.hitAuthor(h)
	r.Text(0, 0, window.Truncate(head, W), text)
	x := r.Text(0, 1, "   ", text)
	at := 0
	if len(h.Marks) > 0 && window.TextWidth(h.Snippet[:h.Marks[0][1]]) > W-x-1 {
		// Start a third of the width before the match, at a space, after "…".
		at = h.Marks[0][0]
		for back := 0; at > 0 && back < (W-x)/3; back++ {
			at--
			for at > 0 && !utf8.RuneStart(h.Snippet[at]) {
				at--
			}
		}
		if i := strings.IndexByte(h.Snippet[at:h.Marks[0][0]], ' '); i >= 0 {
			at += i + 1
		}
		if at > 0 {
			x += r.Text(x, 1, "…", text)
		}
	}
	for _, m := range append(h.Marks, [2]int{len(h.Snippet), len(h.Snippet)}) {
		if m[0] < at || m[1] > len(h.Snippet) || m[0] > m[1] {
			continue // never from Search; a bad range is not drawn rather than panicking
		}
		for _, part := range []struct {
			s string
			c window.Class
		}{{h.Snippet[at:m[0]], text}, {h.Snippet[m[0]:m[1]], mark}} {
			if x >= W {
				return
			}
			x += r.Text(x, 1, window.Truncate(safetext.Line(part.s), W-x), part.c)
		}
		at = m[1]
	}
}

// hitPlace names a hit's conversation: #channel, or the agent's title.
func (ap *application) hitPlace(h store.Hit) string {
	if h.Channel != 0 {
		return "#" + safetext.Line(h.ChannelName)
	}
	return ap.agentTitle(safetext.Line(h.Agent))
}

// hitAuthor names who wrote a hit's entry: you, an agent, or Sidekicks.
func (ap *application) hitAuthor(h store.Hit) string {
	switch {
	case h.Kind == chat.KindUser:
		return searchCatalogue.Text(ap.lang, fmsgYou)
	case h.Author != "":
		if a := ap.cfg.Agent(h.Author); a != nil {
			return agentTitleText(*a)
		}
		return safetext.Line(h.Author)
	}
	return "Sidekicks"
}

// hitTime writes when an entry was written: the time of day today, the date before.
func hitTime(t, now time.Time) string {
	t = t.Local()
	if y, m, d := t.Date(); now.Local().Year() == y && now.Local().Month() == m && now.Local().Day() == d {
		return t.Format("15:04")
	}
	return t.Format("2006-01-02 15:04")
}

func (s *historySearch) HandleEvent(_ *window.Dialog, ev window.Event) bool {
	switch ev := ev.(type) {
	case window.Key:
		page := max(s.height-1, 1)
		switch {
		case ev.Is(window.Named(window.KeyEnter, 0)):
			s.open()
		case ev.Is(window.Named(window.KeyUp, 0)):
			s.move(-1)
		case ev.Is(window.Named(window.KeyDown, 0)):
			s.move(1)
		case ev.Is(window.Named(window.KeyPgUp, 0)):
			s.move(-page)
		case ev.Is(window.Named(window.KeyPgDn, 0)):
			s.move(page)
		default:
			return s.field.HandleEvent(ev)
		}
		return true
	case window.Paste:
		return s.field.HandleEvent(ev)
	case window.Mouse:
		return s.mouse(ev)
	}
	return false
}

// move moves the highlight by d hits, within the list.
func (s *historySearch) move(d int) {
	s.sel = max(min(s.sel+d, len(s.hits)-1), 0)
}

// mouse: a click on a hit opens it, the wheel scrolls, a click in the field moves its
// cursor.
func (s *historySearch) mouse(ev window.Mouse) bool {
	switch ev.Action {
	case window.MouseWheelUp:
		s.move(-3)
		return true
	case window.MouseWheelDown:
		s.move(3)
		return true
	case window.MousePress:
	default:
		return false
	}
	if ev.Y == 0 {
		n := window.TextWidth(searchCatalogue.Text(s.ap.lang, fmsgSearchField) + " ")
		return s.field.HandleEvent(window.Mouse{X: ev.X - n, Y: 0, Action: ev.Action})
	}
	i := s.top + (ev.Y-searchTop)/hitRows
	if ev.Y < searchTop || (ev.Y-searchTop)/hitRows >= s.height || i >= len(s.hits) {
		return false
	}
	s.sel = i
	s.open()
	return true
}

func (s *historySearch) Hints() []window.Hint {
	return []window.Hint{
		{Keys: "↑↓", Label: window.LabelHintMove},
		{Keys: "Enter", Text: searchCatalogue.Text(s.ap.lang, fmsgHintOpen)},
		{Keys: "abc", Label: window.LabelHintFilter},
	}
}

// now is the application's clock: the options' (tests stop it), else the time.
func (ap *application) now() time.Time {
	if ap.o.now != nil {
		return ap.o.now()
	}
	return time.Now()
}
