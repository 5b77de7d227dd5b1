package chatwin

import (
	"time"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// A permission request never takes keys meant for something else. It is answered only in
// its own window, with the window in front, and only by a key typed once the request has
// been in sight for requestGuard and the user has stopped typing for typingGuard: a key of
// a sentence being typed when the request appears goes where it was going. The keys that
// answer are Sidekicks' own (the option's number, or a key per kind), and only while the
// input is empty or the conversation has the keyboard; an "always" answer waits for
// Enter.
const (
	requestGuard = 300 * time.Millisecond
	typingGuard  = 500 * time.Millisecond
)

// The keys per kind: the first option of that kind. Never a letter taken from an
// option's name, which the agent chooses.
const (
	keyAllowOnce    = 'y'
	keyRejectOnce   = 'n'
	keyAllowAlways  = 'Y'
	keyRejectAlways = 'N'
	keyRejectAll    = 'X' // every request of the window, when more than one waits
)

// maxNumbered is how many options have a number (1…9).
const maxNumbered = 9

// permView is what the window knows of the request it shows.
type permView struct {
	head    *Request
	shownAt time.Time // since when it is in sight in the focused window; zero when not
	lastKey time.Time // when the last key reached the window
	wakeAt  time.Time // the frame asked for when the keys start to answer
	drawn   bool      // the last frame showed it: a request not seen is not answered
	// confirm is 1 + the index of the "always" option chosen and waiting for Enter; 0
	// when none.
	confirm int
}

// request returns the request the window shows and how many wait, and keeps track of
// since when it is in sight: focused says whether the window has the keyboard now.
func (w *Widget) request(focused bool) (*Request, int) {
	if w.opts.Requests == nil || w.closed {
		return nil, 0
	}
	r, n := w.opts.Requests.Head(w.key)
	p := &w.perm
	if r != p.head {
		p.head, p.shownAt, p.confirm = r, time.Time{}, 0
	}
	if r == nil || !focused {
		p.shownAt, p.confirm = time.Time{}, 0
		return r, n
	}
	if p.shownAt.IsZero() {
		p.shownAt = w.app.Now()
	}
	if w.win != nil && w.win.FocusedSince().After(p.shownAt) {
		p.shownAt = w.win.FocusedSince()
	}
	return r, n
}

// armed reports whether a key typed now may answer the request in sight.
func (w *Widget) armed(now time.Time) bool {
	return !w.perm.shownAt.IsZero() && !now.Before(w.armsAt())
}

// armsAt is when the keys start to answer the request in sight, unless the user types.
func (w *Widget) armsAt() time.Time {
	p := &w.perm
	at := p.shownAt.Add(requestGuard)
	if t := p.lastKey.Add(typingGuard); t.After(at) {
		at = t
	}
	return at
}

// wakeWhenArmed asks for a frame when the request in sight starts to take its keys, so
// that the window says so even when nothing else moves.
func (w *Widget) wakeWhenArmed() {
	p := &w.perm
	if p.shownAt.IsZero() {
		return
	}
	at := w.armsAt()
	if wait := at.Sub(w.app.Now()); wait > 0 && !at.Equal(p.wakeAt) {
		p.wakeAt = at
		time.AfterFunc(wait, w.app.Invalidate)
	}
}

// mayAnswer reports whether the keys that answer are the request's rather than the
// input's: the input is empty, or the conversation has the keyboard.
func (w *Widget) mayAnswer() bool {
	return w.focus == areaConversation || w.input.text == ""
}

// requestKey gives a key to the request the window shows, first of all its keys; false
// leaves it to the window. A key that comes too soon, or while the user types, is left
// to the window: it goes where it was going.
func (w *Widget) requestKey(k window.Key) bool {
	now := w.app.Now()
	r, n := w.request(true)
	p := &w.perm
	defer func() { p.lastKey = now }()
	if r == nil {
		return false
	}
	if p.confirm > 0 {
		i := p.confirm - 1
		p.confirm = 0
		if k.Is(window.Named(window.KeyEnter, 0)) && i < len(r.Req.Options) {
			w.opts.Requests.answer(r, r.Req.Options[i].ID, true)
		}
		return true // any other key goes back to the options
	}
	if !p.drawn || !w.armed(now) || !w.mayAnswer() || k.Code != window.KeyRune || k.Mod&^window.ModShift != 0 {
		return false
	}
	i := -1
	switch c := k.Rune; {
	case c >= '1' && c <= '9':
		if j := int(c - '1'); j < len(r.Req.Options) && j < maxNumbered {
			i = j
		}
	case c == keyAllowOnce:
		i = optionOfKind(r, "allow_once")
	case c == keyRejectOnce:
		i = optionOfKind(r, "reject_once")
	case c == keyAllowAlways:
		i = optionOfKind(r, "allow_always")
	case c == keyRejectAlways:
		i = optionOfKind(r, "reject_always")
	case c == keyRejectAll && n > 1:
		w.rejectAll()
		return true
	default:
		return false
	}
	if i < 0 {
		return true // an answer key with no such option: nothing, and not typed either
	}
	switch r.Req.Options[i].Kind {
	case "allow_always", "reject_always":
		p.confirm = i + 1
	default:
		w.opts.Requests.answer(r, r.Req.Options[i].ID, true)
	}
	return true
}

// rejectAll rejects every request the window's conversation waits on, and those its
// agents send in the rest of their turns: a flood comes in waves.
func (w *Widget) rejectAll() {
	conv := w.conv
	turns := map[string]int64{} // the agents that asked, and their turn now
	if q := w.opts.Requests.queues[w.key]; q != nil && conv != nil {
		for _, r := range q.items {
			if r != nil && !r.done {
				turns[r.Agent] = conv.State(r.Agent).Turn
			}
		}
	}
	still := func(r *Request) bool {
		t, ok := turns[r.Agent]
		if !ok {
			return false
		}
		st := conv.State(r.Agent)
		return st.Busy && st.Turn == t
	}
	count := w.opts.Requests.rejectAll(w.key, still)
	w.app.Flash(catalogue.Text(w.app.Language(), tRejectedAll, count))
}

// optionOfKind returns the index of r's first option of kind, -1 when none.
func optionOfKind(r *Request, kind string) int {
	for i, o := range r.Req.Options {
		if o.Kind == kind {
			return i
		}
	}
	return -1
}
