package chatwin

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
