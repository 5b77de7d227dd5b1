package chatwin

import (
	"context"
	"errors"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// inputKey handles a key with the input in front: moving and editing.
func (w *Widget) inputKey(k window.Key) bool {
	e := w.input
	width := inputWidth(w.width)
	switch {
	case k.Printable():
		e.insert(string(k.Rune))
	case k.Is(window.Named(window.KeyUp, 0)):
		switch {
		case e.hist >= 0:
			if !e.vertical(-1, width) {
				e.older()
			}
		case e.text == "":
			e.older()
		default:
			e.vertical(-1, width)
		}
	case k.Is(window.Named(window.KeyDown, 0)):
		if !e.vertical(1, width) && e.hist >= 0 {
			e.newer()
		}
	case k.Is(window.Named(window.KeyLeft, 0)):
		e.left()
	case k.Is(window.Named(window.KeyRight, 0)):
		e.right()
	case k.Is(window.Named(window.KeyHome, 0)) || k.Is(window.Ctrl('a')):
		e.home()
	case k.Is(window.Named(window.KeyEnd, 0)) || k.Is(window.Ctrl('e')):
		e.end()
	case k.Is(window.Named(window.KeyBackspace, 0)):
		e.backspace()
	case k.Is(window.Named(window.KeyDelete, 0)) || k.Is(window.Ctrl('d')):
		e.del()
	case k.Is(window.Ctrl('u')):
		e.killStart()
	case k.Is(window.Ctrl('k')):
		e.killEnd()
	case k.Is(window.Named(window.KeyPgUp, 0)):
		w.scroll(-w.page())
		return true
	case k.Is(window.Named(window.KeyPgDn, 0)):
		w.scroll(w.page())
		return true
	default:
		return false
	}
	w.complete()
	return true
}

// listKey handles a key while the completion list is open; false leaves it to the input.
func (w *Widget) listKey(k window.Key) bool {
	l := &w.list
	switch {
	case k.Is(window.Named(window.KeyUp, 0)):
		l.move(-1)
	case k.Is(window.Named(window.KeyDown, 0)):
		l.move(1)
	case k.Is(window.Named(window.KeyPgUp, 0)):
		l.move(-(maxListRows - 1))
	case k.Is(window.Named(window.KeyPgDn, 0)):
		l.move(maxListRows - 1)
	case k.Is(window.Named(window.KeyTab, 0)):
		if l.ready() {
			w.take()
		}
	case k.Is(window.Named(window.KeyEnter, 0)):
		if !l.ready() || l.exact(w.input.text) {
			return false // sends
		}
		w.take()
	case k.Is(window.Named(window.KeyEsc, 0)):
		l.dismiss(w.input.rev)
	default:
		return false
	}
	return true
}

// take completes the word with the highlighted entry of the list.
func (w *Widget) take() {
	l, e := &w.list, w.input
	insert := l.current().insert
	if strings.HasSuffix(insert, " ") && l.to < len(e.text) && e.text[l.to] == ' ' {
		// The space is there already: step over it rather than doubling it.
		e.replace(l.from, l.to, insert[:len(insert)-1])
		e.cursor++
	} else {
		e.replace(l.from, l.to, insert)
	}
	w.complete()
}

// complete recomputes the completion list after the input changed, and walks the
// workspace again when a file list opens.
func (w *Widget) complete() {
	if w.channel != nil {
		w.channelComplete()
		return
	}
	walk := w.list.update(w.input.text, w.input.cursor, w.input.rev, w.commands())
	if w.list.kind == listFiles && w.agent.Files == nil {
		w.list.kind, w.list.items = listNone, nil // no workspace: @ is a character
		return
	}
	if walk {
		w.walkFiles(w.agent.Files)
	}
}

// walkFiles lists the files of a workspace that match the text after the @ off the
// screen's goroutine, for the @ list open now; a walk under way is stopped.
func (w *Widget) walkFiles(files Walker) {
	l := &w.list
	if l.stopWalk != nil {
		l.stopWalk()
	}
	typed := ""
	if l.from < w.input.cursor && w.input.cursor <= len(w.input.text) {
		typed = w.input.text[l.from+1 : w.input.cursor]
	}
	l.walking, l.more, l.walker = true, false, files
	l.walkGen++
	l.walkQuery = strings.ToLower(typed)
	gen := l.walkGen
	ctx, cancel := context.WithTimeout(context.Background(), walkTimeout)
	l.stopWalk = cancel
	keep := walkKeeps(typed)
	w.app.Go(func() {
		found, cut, err := files(ctx, keep, maxFiles)
		cancel()
		w.app.Post(func() { w.walked(gen, found, cut, err) })
	})
}

// walked takes the files of a walk, unless a newer walk started meanwhile. When the walk
// was cut and the text typed since narrows it, it walks again for that text.
func (w *Widget) walked(gen int, files []string, cut bool, err error) {
	l := &w.list
	if gen != l.walkGen {
		return
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		w.opts.Logf("listing the files of %s: %v", w.agent.Name, err)
	}
	l.walking, l.files, l.walkCut, l.stopWalk = false, files, cut || err != nil, nil
	if l.kind == listFiles && l.from < w.input.cursor && w.input.cursor <= len(w.input.text) {
		typed := w.input.text[l.from+1 : w.input.cursor]
		if l.needsWalk(typed) {
			w.walkFiles(l.walker)
			return
		}
		l.filterFiles(typed)
		l.sel = min(l.sel, max(len(l.items)-1, 0))
	}
}
