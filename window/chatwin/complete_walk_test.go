package chatwin

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// In a workspace of more files than a walk keeps (6,001), the list says that it was cut,
// and typing more of a name walks again for that name: a file beyond the first maxFiles is
// found.
func TestFileListFindsBeyondTheLimit(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a/target-notes.txt": "x"}
	for i := 0; i < 6000; i++ {
		files[fmt.Sprintf("a/n%04d.txt", i)] = ""
	}
	wd := newWorld(t, withFiles(files), withSize(70, 24))
	wd.typeText("see @")
	wd.waitFor("the first walk", func() bool { return !wd.w.list.walking })
	if n := onUI(wd.harness, func() int { return len(wd.w.list.files) }); n != maxFiles {
		t.Fatalf("the first walk kept %d files, want %d", n, maxFiles)
	}
	wd.sync()
	if !strings.Contains(wd.text(), "more files match than listed") {
		t.Fatalf("the cut list does not say so:\n%s", wd.text())
	}
	wd.typeText("targ")
	// Each letter may start a walk; the last one ends with the file.
	wd.waitFor("the walk for targ", func() bool { return !wd.w.list.walking })
	wd.sync()
	if got := wd.listRows(); !slices.Equal(got, []string{"a/target-notes.txt"}) {
		t.Fatalf("@targ lists %q:\n%s", got, wd.text())
	}
	if strings.Contains(wd.text(), "more files match than listed") {
		t.Errorf("a complete list says it was cut:\n%s", wd.text())
	}
}

// A walk keeps only the files that match, and counts only those against its limit.
func TestWalkKeepsWhatMatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := 0; i < 20; i++ {
		writeFile(t, dir, "d/f"+itoa(i), "")
	}
	writeFile(t, dir, "d/zz-wanted", "")
	walk := WalkWorkspace(localWorkspace(dir))
	files, cut, err := walk(t.Context(), walkKeeps("WANT"), 5)
	if err != nil || cut || !slices.Equal(files, []string{"d/zz-wanted"}) {
		t.Fatalf("walk for WANT: %q cut=%v %v", files, cut, err)
	}
	if files, cut, _ := walk(t.Context(), walkKeeps("f1"), 5); len(files) != 5 || !cut {
		t.Fatalf("walk for f1 (11 match, limit 5): %q cut=%v", files, cut)
	}
}
