package workbench

import (
	"fmt"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// An image that lacks what the Files window runs is said in the user's language, with
// what is missing.
func TestFilesSayWhatTheImageLacks(t *testing.T) {
	err := fmt.Errorf("listing %q: %w", ".", &runtime.ToolsMissingError{Engine: "docker", Target: "box", Missing: "readlink, stat"})
	for lang, want := range map[i18n.Lang]string{
		i18n.English: `“notes”: the container "box" lacks readlink, stat: its files are reached with sh, readlink -f, stat -c, head, tail, cat, find, mkdir, mktemp, mv, rm and chmod, which its image must have`,
		i18n.French:  `« notes » : il manque readlink, stat au conteneur "box" : ses fichiers passent par sh, readlink -f, stat -c, head, tail, cat, find, mkdir, mktemp, mv, rm et chmod, que son image doit avoir`,
	} {
		if got := errorText(lang, err, "notes", true, nil); got != want {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, want)
		}
	}
}
