package convo

// ShowEntry scrolls so that entry i of the Source (as the last Sync read it) starts at the
// top of the viewport, or as near as the end of the conversation allows, and returns the
// row it starts on; false when there is no such entry.
func (v *View) ShowEntry(i int) (row int, ok bool) {
	if i < 0 || i >= len(v.ents) {
		return 0, false
	}
	v.ensure(i)
	row = v.fw.prefix(i)
	v.ScrollTo(row)
	return row, true
}
