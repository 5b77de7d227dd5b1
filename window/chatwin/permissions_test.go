package chatwin

import (
	"testing"

	"git.rickub.com/bots-garden/sidekicks/window"
)

// TestKindText: each kind of the protocol is named in the dialog's language, in the allow
// or the reject colour; any other kind is not named.
func TestKindText(t *testing.T) {
	for _, c := range []struct {
		lang       window.Language
		kind, want string
		class      window.Class
	}{
		{window.English, "allow_once", "allow, once", window.ClassDialogAllow},
		{window.English, "allow_always", "allow, always", window.ClassDialogAllow},
		{window.English, "reject_once", "reject, once", window.ClassDialogReject},
		{window.French, "reject_always", "refuser, toujours", window.ClassDialogReject},
		{window.French, "allow_once", "autoriser, une fois", window.ClassDialogAllow},
		{window.English, "weird", "", window.ClassDialog},
	} {
		if got, class := kindText(window.NewLabels(c.lang), c.kind); got != c.want || class != c.class {
			t.Errorf("%v %s: %q in %v, want %q in %v", c.lang, c.kind, got, class, c.want, c.class)
		}
	}
}
