package chatwin

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"git.rickub.com/bots-garden/sidekicks/window"
	"git.rickub.com/bots-garden/sidekicks/window/convo"
)

// Find in a conversation (Ctrl-F). The find field takes the place of the rule above the
// input. As the query is typed, the entries the window holds are searched from the newest
// back, a bounded amount at each frame (findBudget), and the newest match is shown; the
// entries that come meanwhile are searched too, one still arriving as its lines complete,
// so the count grows with the answer and Shift-F3 reaches its matches. Enter
// (or F3, or Ctrl-F again) goes to the match before, older; Shift-F3 to the one after,
// newer. Past the oldest match of what is in memory, older pages of the history are loaded
// and searched, one at a time, until a match comes or the history has none. Esc closes the
// field and leaves the conversation's cursor on the last match shown. The text searched is
// convo.View.FindIn's: each line as it is copied, what a fold hides included; a match that
// is folded is unfolded to be shown.

// findBudget bounds the work of a frame: about this many bytes of lines searched (one
// entry is searched whole, however long), an entry counting for at least findEntryCost
// (it may have to be laid out).
const (
	findBudget    = 1 << 19
	findEntryCost = 2048
)

// finder is the state of the find field.
type finder struct {
	open bool
	text string // as typed
	// replace: the field just opened with the last query, which the first key typed
	// replaces (Backspace empties it, Enter searches it again).
	replace bool
	q       convo.Query
	// hits are the matches in the entries searched, oldest first; the entries with ids
	// [lo, hi) were searched. cur is the match shown (-1 none).
	hits   []convo.Hit
	lo, hi int
	live   int  // entry hi is arriving: the line to search again from (its last); -1 none
	fresh  bool // the query changed: show the newest match once found
	cur    int
	at     convo.Anchor // the row of the match shown
	// older: a match before the first was asked for: the search goes on in the entries
	// before lo, loading older pages while the history has them. noOlder / noNewer: the
	// last move found none.
	older, noOlder, noNewer bool
}

// openFind opens the find field, with the last query.
func (w *Widget) openFind() {
	if w.view == nil {
		return
	}
	f := &w.find
	f.open, f.replace = true, f.text != ""
	w.setQuery(f.text)
}

// closeFind closes the field; the conversation's cursor stays on the match shown.
func (w *Widget) closeFind() {
	f := &w.find
	f.open, f.older = false, false
	if f.cur >= 0 {
		w.focus = areaConversation
	}
}

// setQuery starts the search again for text.
func (w *Widget) setQuery(text string) {
	f := &w.find
	f.text, f.q = text, convo.NewQuery(text)
	f.hits, f.cur, f.fresh = f.hits[:0], -1, true
	f.older, f.noOlder, f.noNewer = false, false, false
	end := 0
	if v := w.view; v != nil {
		// The entries still arriving, at the end, are searched as they come (findStep).
		n := v.Len()
		for n > 0 && w.entryLive(n-1) {
			n--
		}
		end = v.ID(n)
	}
	f.lo, f.hi, f.live = end, end, -1
	w.app.Invalidate()
}

// findKey handles a key while the field is open; false lets the window handle it.
func (w *Widget) findKey(k window.Key) bool {
	f := &w.find
	replace := f.replace
	f.replace = false
	switch {
	case replace && k.Is(window.Named(window.KeyBackspace, 0)):
		w.setQuery("")
	case replace && k.Printable():
		w.setQuery(string(k.Rune))
	case k.Is(window.Named(window.KeyEsc, 0)):
		w.closeFind()
	case k.Is(window.Named(window.KeyEnter, 0)), k.Is(window.Named(window.KeyF3, 0)), k.Is(window.Ctrl('f')):
		w.findOlder()
	case k.Is(window.Named(window.KeyF3, window.ModShift)):
		w.findNewer()
	case k.Is(window.Named(window.KeyBackspace, 0)):
		if f.text != "" {
			_, n := lastCluster(f.text)
			w.setQuery(f.text[:len(f.text)-n])
		}
	case k.Printable():
		w.setQuery(f.text + string(k.Rune))
	default:
		return false
	}
	return true
}

// findPaste types the first line of a paste in the field.
func (w *Widget) findPaste(text string) {
	line, _, _ := strings.Cut(safetext.Line(text), "\n")
	w.setQuery(w.find.text + line)
}

// lastCluster returns the last rune of s and its size.
func lastCluster(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xC0 != 0x80 {
			return rune(s[i]), len(s) - i
		}
	}
	return 0, len(s)
}

// readingOlder reports whether Find is reading older pages of the history for a match: the
// window then keeps them (release), or it would let each go before its turn came and read
// it again. They leave as usual once a match is shown, or the field closes.
func (f *finder) readingOlder() bool { return f.open && f.older }

// findOlder shows the match before the one shown (the newest when none is).
func (w *Widget) findOlder() {
	f := &w.find
	f.noNewer = false
	switch {
	case f.q.Empty():
	case f.cur > 0:
		f.cur--
		w.showHit()
	case f.cur < 0 && len(f.hits) > 0:
		f.cur = len(f.hits) - 1
		w.showHit()
	default:
		f.older, f.noOlder = true, false
		w.app.Invalidate()
	}
}

// findNewer shows the match after the one shown.
func (w *Widget) findNewer() {
	f := &w.find
	f.older, f.noOlder = false, false
	if f.cur >= 0 && f.cur < len(f.hits)-1 {
		f.cur++
		w.showHit()
		return
	}
	f.noNewer = f.cur >= 0
}

// showHit scrolls to the match shown and puts the conversation's cursor on it.
func (w *Widget) showHit() {
	f := &w.find
	row, ok := w.view.RowOfHit(f.hits[f.cur])
	if !ok {
		return
	}
	f.at = w.view.AnchorAt(row)
	w.setCursor(row)
	w.cur.selOn = false
	// A few rows of what comes before, when there are.
	if top := w.view.Top(); row-top < 2 && row > 0 && !w.cur.atEnd {
		w.view.ScrollTo(max(row-w.convH/3, 0))
	}
}

// findStep searches on, within findBudget: the entries loaded before those searched (older
// pages), then the new ones at the end. It runs at each frame while the field is open, after
// the view read the conversation.
func (w *Widget) findStep() {
	f := &w.find
	if !f.open || f.q.Empty() || w.view == nil {
		return
	}
	v := w.view
	first, end := v.ID(0), v.ID(v.Len())
	if end < f.hi { // the view read its conversation again from the start: so does the search
		w.setQuery(f.text)
		first, end = v.ID(0), v.ID(v.Len())
	}
	// Entries that left memory from the front take their matches with them.
	if f.lo < first {
		k := 0
		for k < len(f.hits) && f.hits[k].ID < first {
			k++
		}
		f.hits = append(f.hits[:0], f.hits[k:]...)
		f.cur = max(f.cur-k, -1)
		f.lo = first
		if f.hi < first {
			f.hi, f.live = first, -1
		}
	}
	budget := findBudget
	had := len(f.hits)
	for f.hi < end && budget > 0 {
		i, _ := v.Index(f.hi)
		var n int
		// An entry still arriving is searched as it comes: from its last line searched
		// (which may have grown) on, the matches found there before dropped.
		if live := w.entryLive(i); live || f.live >= 0 {
			k := len(f.hits)
			for k > 0 && f.hits[k-1].ID == f.hi && int(f.hits[k-1].Line) >= f.live {
				k--
			}
			f.hits = f.hits[:k]
			f.hits, n, f.live = v.FindLines(i, f.q, max(f.live, 0), f.hits)
			f.cur = min(f.cur, len(f.hits)-1)
			budget -= max(n, findEntryCost)
			if live {
				break
			}
		} else {
			f.hits, n = v.FindIn(i, f.q, f.hits)
			budget -= max(n, findEntryCost)
		}
		f.hi++
		f.live = -1
	}
	if len(f.hits) > had {
		f.noNewer = false         // there are newer ones now
		if f.fresh && f.cur < 0 { // the newest match is in them
			f.cur, f.fresh = len(f.hits)-1, false
			w.showHit()
		}
	}
	var front []convo.Hit
	for f.lo > first && budget > 0 {
		f.lo--
		i, _ := v.Index(f.lo)
		var n int
		before := len(front)
		front, n = v.FindIn(i, f.q, front)
		budget -= max(n, findEntryCost)
		// FindIn gives a line's matches in order; entries come newest first here: put this
		// one's before those found so far.
		if got := len(front) - before; got > 0 && before > 0 {
			mine := append([]convo.Hit(nil), front[before:]...)
			copy(front[got:], front[:before])
			copy(front, mine)
		}
	}
	if len(front) > 0 {
		f.hits = append(front, f.hits...)
		if f.cur >= 0 {
			f.cur += len(front)
		}
		if f.older && f.cur > 0 || f.older && f.cur < 0 || f.fresh {
			f.cur = len(front) - 1
			f.older, f.fresh = false, false
			w.showHit()
		}
	}
	switch {
	case f.lo > first || f.hi < end && budget <= 0:
		w.app.Invalidate() // more to search in the next frame
	case f.older && !w.olderLoading:
		if w.olderDone {
			f.older, f.noOlder = false, true
		} else {
			w.loadOlder()
		}
	}
}

// entryLive reports whether entry i of the conversation is still streaming.
func (w *Widget) entryLive(i int) bool {
	e, ok := w.pace.Entry(i)
	return ok && !e.Done
}

// findRow returns the row of the match shown, -1 when none.
func (w *Widget) findRow() int {
	f := &w.find
	if !f.open || f.cur < 0 || f.cur >= len(f.hits) {
		return -1
	}
	return w.view.RowOf(f.at)
}

// markMatches draws the matches of the rows drawn over them: those of the match shown's
// row in the selection's colours, the others as list selections.
func (w *Widget) markMatches(r window.Region, y0, top int, rows []convo.Row) {
	f := &w.find
	if !f.open || f.q.Empty() {
		return
	}
	cur := w.findRow()
	for i := range rows {
		row := &rows[i]
		c := window.ClassListSelected
		if top+i == cur {
			c = window.ClassSelection
		}
		text := row.Text()
		for a, b := f.q.Span(text, 0); a >= 0; a, b = f.q.Span(text, b) {
			r.Text(row.Indent+window.TextWidth(text[:a]), y0+i, text[a:b], c)
		}
	}
}

// drawFind draws the find field in place of the rule: the query, then where the search
// stands.
func (w *Widget) drawFind(r window.Region, focused bool) {
	f := &w.find
	lang := w.app.Language()
	x := r.Text(0, 0, "─ ", window.ClassFrame)
	x += r.Text(x, 0, findCatalogue.Text(lang, fLabel)+" ", window.ClassComment)
	x += r.Text(x, 0, " "+f.text, window.ClassDialogInput)
	cursor := x
	x += r.Text(x, 0, " ", window.ClassDialogInput)
	x += r.Text(x, 0, " "+w.findStatus(lang)+" ", window.ClassComment)
	W, _ := r.Size()
	r.Repeat(x, 0, W-x, "─", window.ClassFrame)
	if focused {
		r.ShowCursor(min(cursor, W-1), 0)
	}
}

// findHints are the status bar's hints while the field is open.
func (w *Widget) findHints() []window.Hint {
	lang := w.app.Language()
	key := func(k window.Key) *window.Key { return &k }
	return []window.Hint{
		{Keys: "Enter", Text: findCatalogue.Text(lang, fHintOlder), Key: key(window.Named(window.KeyEnter, 0))},
		{Keys: "Shift-F3", Text: findCatalogue.Text(lang, fHintNewer), Key: key(window.Named(window.KeyF3, window.ModShift))},
		{Keys: "Esc", Label: window.LabelHintClose, Key: key(window.Named(window.KeyEsc, 0))},
	}
}

// findStatus says where the search stands.
func (w *Widget) findStatus(lang i18n.Lang) string {
	f := &w.find
	v := w.view
	searching := v != nil && f.lo > v.ID(0)
	switch {
	case f.q.Empty():
		return findCatalogue.Text(lang, fHelp)
	case f.older && w.olderLoading:
		return findCatalogue.Text(lang, fOlderPages)
	case f.noOlder:
		return findCatalogue.Text(lang, fNoOlder)
	case f.noNewer:
		return findCatalogue.Text(lang, fNoNewer)
	case len(f.hits) == 0 && searching:
		return findCatalogue.Text(lang, fSearching)
	case len(f.hits) == 0:
		return findCatalogue.Text(lang, fNoMatch)
	case f.cur < 0:
		return findCatalogue.Text(lang, fMatches, len(f.hits))
	}
	return findCatalogue.Text(lang, fMatchOf, f.cur+1, len(f.hits))
}

// The texts of the find field.
const (
	fLabel = iota
	fHelp
	fSearching
	fOlderPages
	fNoMatch
	fNoOlder
	fNoNewer
	fMatches
	fMatchOf
	fHintFind
	fHintOlder
	fHintNewer
	fHintFold
	fHintUnfold
)

var findCatalogue = i18n.NewCatalogue[int](
	[]string{
		fLabel:      "Find",
		fHelp:       "Enter older · Shift-F3 newer · Esc closes",
		fSearching:  "searching…",
		fOlderPages: "searching older history…",
		fNoMatch:    "no match in what is loaded — Enter searches older history",
		fNoOlder:    "no older match",
		fNoNewer:    "no newer match",
		fMatches:    "%d matches — Enter shows the newest",
		fMatchOf:    "match %d of %d",
		fHintFind:   "Find",
		fHintOlder:  "Older",
		fHintNewer:  "Newer",
		fHintFold:   "Fold",
		fHintUnfold: "Unfold",
	},
	[]string{
		fLabel:      "Chercher",
		fHelp:       "Enter plus ancien · Shift-F3 plus récent · Esc ferme",
		fSearching:  "recherche…",
		fOlderPages: "recherche dans l'historique plus ancien…",
		fNoMatch:    "rien dans ce qui est chargé — Enter cherche plus loin",
		fNoOlder:    "rien de plus ancien",
		fNoNewer:    "rien de plus récent",
		fMatches:    "%d résultats — Enter montre le plus récent",
		fMatchOf:    "résultat %d sur %d",
		fHintFind:   "Chercher",
		fHintOlder:  "Plus ancien",
		fHintNewer:  "Plus récent",
		fHintFold:   "Replier",
		fHintUnfold: "Déplier",
	},
)
