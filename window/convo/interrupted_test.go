package convo

import (
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// An entry Sidekicks stopped in the middle of ends with a line that says so, in the error
// colour, in the user's language; a finished one does not.
func TestInterruptedEntryIsMarked(t *testing.T) {
	cut := agentEntry("the first half of a reply")
	cut.Interrupted = true
	whole := agentEntry("a whole reply")
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		src := &fakeSource{}
		src.add(whole, cut)
		v := New(src, Options{Labels: LabelsFor(lang)})
		v.SetSize(80, 1000)
		v.Sync()
		rows := all(t, v)
		want := LabelsFor(lang).Interrupted
		var marks []string
		for _, r := range rows {
			if strings.Contains(r.Text(), want) {
				marks = append(marks, r.Text())
				if r.Kind != RowNotice || len(r.Spans) == 0 || r.Spans[0].Class != ClassError {
					t.Errorf("%v: the mark is %v %+v, want a notice row in the error colour", lang, r.Kind, r.Spans)
				}
			}
		}
		if len(marks) != 1 {
			t.Fatalf("%v: %d interrupted marks, want 1 (after the cut entry):\n%s", lang, len(marks), dump(rows))
		}
		text := dump(rows)
		if strings.Index(text, want) < strings.Index(text, "the first half") {
			t.Errorf("%v: the mark is not after the cut entry:\n%s", lang, text)
		}
	}
	if fr := LabelsFor(i18n.French).Interrupted; !strings.Contains(fr, "interrompu") {
		t.Errorf("French label %q", fr)
	}
}
