package chat_test

import (
	"slices"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// watchingSink is a sink that says when saving stops and resumes (chat.SaveWatcher).
type watchingSink struct {
	turnSink
	tell func(chat.SaveState)
}

func (s *watchingSink) WatchSaves(f func(chat.SaveState)) { s.tell = f }

// A sink that cannot save is shown in the conversation, in its language, with the reason,
// and so is the saving that resumes; the notices are handed to the sink like any entry.
func TestSaveStateNotices(t *testing.T) {
	for _, tc := range []struct {
		lang i18n.Lang
		want []string
	}{
		{i18n.English, []string{
			"History not saved: disk is full. What is said from here on is kept in memory and written as soon as it can be; quitting now loses it.",
			"History saving resumed, but 2 entries could not be kept in memory meanwhile and are not in the history.",
			"History saving resumed: what was kept in memory is written.",
		}},
		{i18n.French, []string{
			"Historique non enregistré : disk is full. Ce qui est dit à partir d'ici est gardé en mémoire et écrit dès que possible ; quitter maintenant le perd.",
			"Enregistrement de l'historique repris, mais 2 entrées n'ont pas pu être gardées en mémoire entre-temps et ne sont pas dans l'historique.",
			"Enregistrement de l'historique repris : ce qui était gardé en mémoire est écrit.",
		}},
	} {
		c := chat.New(chat.Options{Lang: tc.lang})
		sink := &watchingSink{}
		c.SetSink(sink)
		if sink.tell == nil {
			t.Fatal("SetSink did not watch the sink's saving")
		}
		sink.tell(chat.SaveState{Failing: true, Reason: "disk is full\x1b[31m"})
		sink.tell(chat.SaveState{Lost: 2})
		sink.tell(chat.SaveState{})
		var got []string
		for _, e := range c.Snapshot() {
			if e.Kind == chat.KindNotice {
				got = append(got, e.Text)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s notices:\n%q\nwant\n%q", tc.lang, got, tc.want)
		}
		c.Flush()
		if n := len(sink.all()); n != 3 {
			t.Errorf("%s: %d entries reached the sink, want the 3 notices", tc.lang, n)
		}
	}
}
