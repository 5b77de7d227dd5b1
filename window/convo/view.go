package convo

import (
	"slices"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// Source is what a view reads: a chat.Conversation, or anything with the same three methods.
type Source interface {
	Len() int
	Entry(i int) (chat.Entry, bool)
	Rev() uint64
}

// How much a Sync looks at, besides the entries still streaming: the last tailChecks
// entries, the entries on screen, and sweepChecks others in turn. The conversation does not
// say which entries changed, and an entry that is done may still change if it is a tool call
// (a late update) or a notice (a permission's answer); the chat model never changes the other
// kinds once done (a chunk after that starts a new entry, and so does a new plan). So only
// tool calls and notices (and kinds this view does not know) are swept: one off screen is
// seen within n/sweepChecks frames. After a resize, a Sync re-wraps at most settleLines lines
// of the entries not yet seen at the new width, from the end of the conversation up, and
// asks for another frame until none is left.
const (
	tailChecks  = 8
	sweepChecks = 32
	settleLines = 4096
)

// keepLayout bounds the layout a view keeps, counted in lines and rows (a line of ordinary
// prose is one of each): beyond it, the entries laid out longest ago that are done and were
// not on screen in the last frame are parked (entryView.park): only their row count stays,
// and their layout is made again from the Source when they are needed (on screen again, a
// copy, a resize). So the memory of a view does not grow with its conversation.
const keepLayout = 1 << 14

// openLines is about how many lines a view lays out at once of a conversation it has never
// read (from the end back): a few screens of the tallest terminal. The entries before are
// unread until they are needed.
const openLines = 1024

// View is the layout of one conversation: its rows at a width, cached per entry, with a
// viewport. A View belongs to the UI goroutine: none of its methods may be called from
// another one.
type View struct {
	src    Source
	opts   Options
	width  int
	height int

	synced bool
	rev    uint64
	ents   []*entryView
	fw     fenwick
	// origin turns an entry's index into an id that survives entries loaded before the
	// first one (Conversation.Load): id = index - origin.
	origin int

	live, spare      []int // entries not done when last read (and a buffer to swap with)
	mutable          []int // entries that may change after they are done (tool calls, notices)
	sweep            int   // the next of mutable to look at
	seenFrom, seenTo int   // the entries the last RowsAt showed
	stale            int   // entries [0, stale) may be wrapped at an older width

	hlGen uint64
	waits []hlWait

	// queue holds the entries laid out (not parked), oldest first from qHead; held is what
	// their layouts weigh (entryView.cost), keep the bound (keepLayout), tick counts Syncs.
	queue []*entryView
	qHead int
	held  int
	keep  int
	tick  uint64
	// frames counts the Syncs that came after rows were shown (RowsAt; showed says some
	// were since the last): an entry shown is marked with the count after it
	// (entryView.shown), and stays recent until rows are shown again and a Sync follows,
	// however many Syncs come between (a window lays out a flood between its frames).
	frames uint64
	showed bool
	openAt int // openLines
	// settled counts the lines re-wrapped since the width changed: past openAt, the other
	// entries laid out are parked rather than re-wrapped.
	settled int

	follow bool
	top    Anchor
	fold   foldState

	rowsBuf []Row
	spanBuf []Span
}

type hlWait struct {
	ev  *entryView
	bi  int32
	key hlKey
}

// New returns a view of src, 80 cells wide and following the bottom, until SetSize says
// otherwise. Nothing is read before the first Sync.
func New(src Source, opts Options) *View {
	return &View{src: src, opts: opts.withDefaults(), width: 80, follow: true, keep: keepLayout, openAt: openLines}
}

// SetSize sets the width rows are wrapped at and the height of the viewport. Changing the
// width costs nothing at once: the entries on screen are re-wrapped when drawn, the others a
// few at each Sync.
func (v *View) SetSize(width, height int) {
	width, height = max(width, 1), max(height, 0)
	v.height = height
	if width != v.width {
		v.width = width
		v.stale, v.settled = len(v.ents), 0
	}
}

// Width returns the width rows are wrapped at.
func (v *View) Width() int { return v.width }

// Sync reads what changed in the conversation since the last call, and applies the
// highlighting the Highlighter finished; it reports whether the rows may have changed. Call it
// once per frame, before Frame.
func (v *View) Sync() bool {
	v.tick++
	if v.showed {
		v.frames++
		v.showed = false
	}
	defer v.trim()
	changed := false
	if rev := v.src.Rev(); !v.synced || rev != v.rev {
		v.synced, v.rev = true, rev
		changed = v.pull()
	}
	if g := v.opts.Highlighter.gen.Load(); g != v.hlGen {
		v.hlGen = g
		changed = v.collectHighlights() || changed
	}
	if v.stale > 0 {
		v.settle(settleLines)
		changed = true
		if v.stale > 0 && v.opts.Wake != nil {
			v.opts.Wake()
		}
	}
	return changed
}

// pull reads new entries and those that may have changed.
func (v *View) pull() bool {
	n := v.src.Len()
	changed := false
	if len(v.ents) > 0 && !v.sameStart(n) {
		changed = true
	}
	old := len(v.ents)
	if from, lines := v.backlogStart(old, n); from > old {
		v.appendUnread(old, from, max(1, lines/(n-from)))
		changed = true
	}
	for i := len(v.ents); i < n; i++ {
		e, ok := v.src.Entry(i)
		if !ok {
			break
		}
		v.appendEntry(e)
		changed = true
	}
	check := func(i int) {
		if i >= 0 && i < old && v.check(i) {
			changed = true
		}
	}
	live := v.live
	v.live, v.spare = v.spare[:0], live // two buffers: no allocation per frame
	for _, i := range live {
		check(i)
		if i < len(v.ents) && !v.ents[i].done {
			v.live = append(v.live, i)
		}
	}
	tail := max(0, old-tailChecks)
	for i := tail; i < old; i++ {
		if ev := v.ents[i]; ev != nil && ev.done { // those not done were just read
			check(i)
		}
	}
	for i := v.seenFrom; i < min(v.seenTo, tail); i++ {
		if ev := v.ents[i]; ev != nil && ev.done {
			check(i)
		}
	}
	for k := 0; k < sweepChecks && k < len(v.mutable); k++ {
		if v.sweep >= len(v.mutable) {
			v.sweep = 0
		}
		check(v.mutable[v.sweep])
		v.sweep++
	}
	for i := old; i < len(v.ents); i++ {
		if ev := v.ents[i]; ev != nil && !ev.done {
			v.live = append(v.live, i)
		}
	}
	return changed
}

// check reads entry i again and updates it when it changed.
func (v *View) check(i int) bool {
	ev := v.ents[i]
	if ev == nil { // unread: it is read when needed
		return false
	}
	e, ok := v.src.Entry(i)
	if !ok || (e.Seq == ev.seq && e.Rev == ev.rev) {
		return false
	}
	if !e.Done && ev.done {
		v.live = append(v.live, i)
	}
	ev.update(e, v.ctx(i), v.width)
	v.cut(ev)
	v.fw.set(i, len(ev.rows))
	v.laid(ev)
	return true
}

// ctx is the rendering context of entry i.
func (v *View) ctx(i int) *renderCtx {
	rc := &renderCtx{opts: &v.opts, first: i == 0, width: v.width}
	if i > 0 {
		if p := v.ents[i-1]; !p.unread() {
			rc.prevKind, rc.prevAuthor = p.kind, p.author
		} else if e, ok := v.src.Entry(i - 1); ok {
			rc.prevKind, rc.prevAuthor = e.Kind, e.Author
		}
	}
	return rc
}

// backlogStart returns where the entries [old, n) the view has never read start to be laid
// out at once: from the end back, those that fill openLines lines. The ones
// before (a long history opened at once) are left unread until they are needed: so opening a
// window costs what it shows, not what its conversation holds. It also returns about how many
// lines the entries from there take.
func (v *View) backlogStart(old, n int) (int, int) {
	lines := 0
	i := n
	for i > old && lines < v.openAt {
		e, ok := v.src.Entry(i - 1)
		if !ok {
			break
		}
		i--
		lines += strings.Count(e.Text, "\n") + 4 // the spacer, a label, a last line, a foot
	}
	return i, lines
}

// appendUnread appends the entries [from, to) as unread (parked without ever being read),
// each counted for est rows until it is laid out.
func (v *View) appendUnread(from, to, est int) {
	v.ents = slices.Grow(v.ents, to-from+(to-from)/4)
	counts := slices.Grow(v.fw.vals, to-from+(to-from)/4)
	for range to - from {
		counts = append(counts, est)
	}
	v.fw.reset(counts) // one pass, where a push each would cost O(log n) and grow twice
	for i := from; i < to; i++ {
		var ev *entryView // nil until it is needed: an unread entry costs its pointer
		if i == 0 {       // sameStart compares the first entry's Seq
			ev = &entryView{parked: true, done: true}
			if e, ok := v.src.Entry(0); ok {
				ev.seq, ev.rev, ev.kind, ev.author = e.Seq, e.Rev, e.Kind, e.Author
				if mutableKind(e.Kind) {
					v.mutable = append(v.mutable, 0)
				}
			}
		}
		v.ents = append(v.ents, ev)
	}
}

func (v *View) appendEntry(e chat.Entry) {
	ev := &entryView{}
	ev.update(e, v.ctx(len(v.ents)), v.width)
	v.cut(ev)
	if mutableKind(e.Kind) {
		v.mutable = append(v.mutable, len(v.ents))
	}
	v.ents = append(v.ents, ev)
	v.fw.push(len(ev.rows))
	v.laid(ev)
}

// mutableKind reports the kinds of entries that may change once done.
func mutableKind(k chat.EntryKind) bool {
	switch k {
	case chat.KindUser, chat.KindAgent, chat.KindThought, chat.KindPlan:
		return false
	}
	return true
}

// sameStart checks that the entries the view holds still start the conversation: when
// entries were loaded before them (a page of history), it reads those; when the
// conversation is not what it was at all, it reads everything again.
func (v *View) sameStart(n int) bool {
	first := v.ents[0].seq
	if e, ok := v.src.Entry(0); ok && e.Seq == first && n >= len(v.ents) {
		return true
	}
	for k := 1; k <= n-len(v.ents); k++ {
		if e, ok := v.src.Entry(k); ok && e.Seq == first {
			v.prepend(k)
			return false
		}
	}
	v.reset()
	return false
}

// prepend reads the k entries loaded before the ones the view holds.
func (v *View) prepend(k int) {
	old := v.ents
	v.ents = make([]*entryView, 0, len(old)+k)
	var mutable []int
	for i := 0; i < k; i++ {
		e, _ := v.src.Entry(i)
		ev := &entryView{}
		ev.update(e, v.ctx(i), v.width)
		v.cut(ev)
		v.ents = append(v.ents, ev)
		v.laid(ev)
		if mutableKind(e.Kind) {
			mutable = append(mutable, i)
		}
	}
	for _, i := range v.mutable {
		mutable = append(mutable, i+k)
	}
	v.mutable = mutable
	v.ents = append(v.ents, old...)
	if e, ok := v.src.Entry(k); ok { // its head depends on the entry before it
		v.ents[k].render(e, v.ctx(k))
		v.ents[k].rewrap(v.width)
		v.cut(v.ents[k])
		v.laid(v.ents[k])
	}
	counts := make([]int, k, len(v.ents)) // the entries held keep their counts (parked, unread)
	for i, ev := range v.ents[:k] {
		counts[i] = len(ev.rows)
	}
	counts = append(counts, v.fw.vals...)
	counts[k] = len(v.ents[k].rows)
	v.fw.reset(counts)
	v.origin += k
	for j := range v.live {
		v.live[j] += k
	}
	v.seenFrom, v.seenTo = v.seenFrom+k, v.seenTo+k
	if v.stale > 0 {
		v.stale += k
	}
}

// reset forgets every entry; the next reads start again from the first.
func (v *View) reset() {
	v.ents = v.ents[:0]
	v.fw.reset(nil)
	v.live = v.live[:0]
	v.mutable = v.mutable[:0]
	v.sweep, v.seenFrom, v.seenTo, v.stale = 0, 0, 0, 0
	v.origin = 0
	v.follow = true
	v.waits = v.waits[:0]
	clear(v.queue)
	v.queue, v.qHead, v.held = v.queue[:0], 0, 0
}

// settle re-wraps entries not yet at the current width, from the end up, within budget
// lines. Parked entries are left as they are, counted at their old width until they are
// needed (ensure): a resize costs the layout the view keeps, not the conversation.
//
// Past openAt lines re-wrapped, the entries laid out that are done and were not on screen
// in the last frame are parked instead: they are counted at their old width until they are
// needed, like those parked before. So a resize costs about what opening a window does, not
// the layout the view keeps.
//
// Past openAt, the entries left to look at are found in the queue of those laid out rather
// than by walking every entry up to the first: the others (parked, unread) need nothing. So
// what a resize costs does not grow with the conversation's entries either.
func (v *View) settle(budget int) {
	for v.stale > 0 && budget > 0 {
		if v.settled >= v.openAt {
			v.parkQueued()
			return
		}
		v.stale--
		ev := v.ents[v.stale]
		if ev == nil || ev.width == v.width || ev.parked {
			continue
		}
		budget -= len(ev.lines) + 1
		v.settled += len(ev.lines) + 1
		v.ensure(v.stale)
	}
}

// parkQueued ends a settle: the entries laid out at an older width that are done and were
// not on screen in the last frame are parked. Those on screen and those streaming keep their
// layout, re-wrapped when they are drawn (ensure) or change (check).
func (v *View) parkQueued() {
	for _, ev := range v.queue[v.qHead:] {
		if ev == nil || ev.parked || ev.width == v.width || !ev.done || v.recent(ev) {
			continue
		}
		v.held -= ev.held
		ev.held = 0
		ev.park()
	}
	v.stale = 0
}

// recent reports an entry on screen in the last frame, or since it.
func (v *View) recent(ev *entryView) bool { return ev.shown != 0 && ev.shown >= v.frames }

// ensure makes entry i's rows those of the current width, laying a parked entry out again.
func (v *View) ensure(i int) *entryView {
	ev := v.ents[i]
	if ev == nil {
		ev = &entryView{parked: true, done: true}
		v.ents[i] = ev
	}
	switch {
	case ev.parked:
		v.unpark(i, ev)
	case ev.width != v.width:
		ev.rewrap(v.width)
		v.cut(ev)
		v.fw.set(i, len(ev.rows))
	}
	return ev
}

// unpark reads a parked entry again from the Source and lays it out. An entry the Source no
// longer holds (the conversation changed under the view: the next Sync reads it again)
// shows no rows meanwhile.
func (v *View) unpark(i int, ev *entryView) {
	e, ok := v.src.Entry(i)
	unread := ev.unread()
	if !ok || e.Seq != ev.seq && !unread {
		ev.parked, ev.width = false, v.width
		v.fw.set(i, 0)
		return
	}
	if unread {
		if mutableKind(e.Kind) {
			v.mutable = append(v.mutable, i)
		}
		if !e.Done {
			v.live = append(v.live, i)
		}
	}
	ev.render(e, v.ctx(i))
	ev.rewrap(v.width)
	v.cut(ev)
	v.fw.set(i, len(ev.rows))
	v.laid(ev)
}

// laid records that an entry has a layout: it joins the queue of those that may be parked,
// or, already in it, updates what it weighs.
func (v *View) laid(ev *entryView) {
	if ev.parked {
		return
	}
	ev.laidAt = v.tick
	c := ev.cost()
	if ev.queued { // still in the queue: what it weighs now
		v.held += c - ev.held
		ev.held = c
		return
	}
	ev.queued, ev.held = true, c
	v.queue = append(v.queue, ev)
	v.held += c
}

// trim parks the entries laid out longest ago while the layouts weigh more than the bound;
// entries still streaming, those on screen in this frame or the last, and those laid out in
// this Sync stay (they go back to the end of the queue, with what they weigh now).
func (v *View) trim() {
	for n := len(v.queue) - v.qHead; v.held > v.keep && n > 0; n-- {
		ev := v.queue[v.qHead]
		v.queue[v.qHead] = nil
		v.qHead++
		v.held -= ev.held
		ev.queued = false
		if ev.parked {
			continue
		}
		if !ev.done || v.recent(ev) || ev.laidAt == v.tick {
			v.laid(ev) // laid out in this Sync: parked, it would be laid out again to be shown
			continue
		}
		ev.park()
	}
	if v.qHead > len(v.queue)/2 {
		k := copy(v.queue, v.queue[v.qHead:])
		clear(v.queue[k:])
		v.queue, v.qHead = v.queue[:k], 0
	}
}

// collectHighlights applies the highlighting the Highlighter finished, and forgets requests it
// dropped (they are made again when their block is on screen).
func (v *View) collectHighlights() bool {
	changed := false
	waits := v.waits[:0]
	for _, w := range v.waits {
		if int(w.bi) >= len(w.ev.blocks) {
			continue
		}
		b := &w.ev.blocks[w.bi]
		if b.key != w.key || b.state != hlPending {
			continue
		}
		if res, ok := v.opts.Highlighter.lookup(w.key); ok {
			w.ev.applyHighlight(w.bi, res)
			changed = true
			continue
		}
		if !v.opts.Highlighter.waiting(w.key) {
			b.state = hlNone
			continue
		}
		waits = append(waits, w)
	}
	v.waits = waits
	return changed
}

// wantHighlight is called for a code block on screen: it gets its highlighting from the
// cache, or asks the Highlighter.
func (v *View) wantHighlight(ev *entryView, bi int32) {
	b := &ev.blocks[bi]
	if !b.closed || b.state != hlNone {
		return
	}
	if res, ok := v.opts.Highlighter.lookup(b.key); ok {
		ev.applyHighlight(bi, res)
		return
	}
	code, ok := ev.blockCode(b)
	if !ok {
		b.state = hlPlain
		return
	}
	b.state = hlPending
	v.waits = append(v.waits, hlWait{ev: ev, bi: bi, key: b.key})
	v.opts.Highlighter.request(b.key, b.lx, code, v.opts.Wake)
}

// Highlighting reports whether code blocks on screen still wait for their highlighting.
func (v *View) Highlighting() bool { return len(v.waits) > 0 }
