package agentstack

import "git.rickub.com/bots-garden/sidekicks/chat"

var _ chat.Keeper = (*storeTranscript)(nil)

// Kept gives the ids of the entries the Writer has written as last saved (chat.Keeper): an
// entry of this session by the id its first Save got, one loaded from the history by its
// own. An entry waiting in the Writer (saving fails, or is merely behind) gets 0: it stays
// in the conversation's memory.
func (t *storeTranscript) Kept(refs []chat.EntryRef) []int64 {
	ids := make([]int64, len(refs))
	t.mu.Lock()
	for i, r := range refs {
		ids[i] = r.ID
		if id, ok := t.ids[r.Seq]; ok {
			ids[i] = id
		}
	}
	t.mu.Unlock()
	for i, ok := range t.h.w.Written(ids) {
		if !ok {
			ids[i] = 0
		}
	}
	return ids
}

// Forget drops the ids kept for entries the conversation let go: their later saves carry
// their ID.
func (t *storeTranscript) Forget(refs []chat.EntryRef) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ids = forget(t.ids, refs)
}

// forget deletes the refs' Seqs from ids, and returns ids, or a copy of what remains when
// that is less than half of it: a map keeps the room it grew to.
func forget(ids map[int64]int64, refs []chat.EntryRef) map[int64]int64 {
	before := len(ids)
	for _, r := range refs {
		delete(ids, r.Seq)
	}
	if before < 256 || len(ids) > before/2 {
		return ids
	}
	out := make(map[int64]int64, len(ids))
	for k, v := range ids {
		out[k] = v
	}
	return out
}
