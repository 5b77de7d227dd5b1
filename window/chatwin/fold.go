package chatwin

import "git.rickub.com/bots-garden/sidekicks/window"

// foldHints offers Enter to fold or unfold the entry under the conversation's cursor, when
// it is one that folds.
func (w *Widget) foldHints() []window.Hint {
	if w.view == nil || w.view.Total() == 0 {
		return nil
	}
	folded, ok := w.view.Foldable(w.curRow())
	if !ok {
		return nil
	}
	t := fHintFold
	if folded {
		t = fHintUnfold
	}
	k := window.Named(window.KeyEnter, 0)
	return []window.Hint{{Keys: "Enter", Text: findCatalogue.Text(w.app.Language(), t), Key: &k}}
}

// toggleFoldAtCursor folds or unfolds the entry under the conversation's cursor (Enter with
// the conversation in front); false when it is not one that folds, and Enter sends.
func (w *Widget) toggleFoldAtCursor() bool {
	if w.view == nil || w.view.Total() == 0 {
		return false
	}
	row := w.curRow()
	if !w.view.ToggleFold(row) {
		return false
	}
	if !w.cur.atEnd {
		w.view.ScrollToShow(w.curRow())
	}
	return true
}
