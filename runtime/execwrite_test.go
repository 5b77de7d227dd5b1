package runtime

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// An agent inside a container may plant links where the write script would put its
// temporary file: with a name it can predict (the shell's process id), its next write, or
// the user's next save from the Files window, would go through the link to a file outside
// the workspace. The temporary file's name is not predictable, and a planted link redirects
// nothing.
func TestExecWriteGoesThroughNoPlantedLink(t *testing.T) {
	data, err := os.ReadFile("/proc/sys/kernel/ns_last_pid")
	if err != nil {
		t.Skipf("the next process ids cannot be predicted here: %v", err)
	}
	last, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	newFakeEngines(t)
	f := newFixture(t)
	target := filepath.Join(f.outside, "secret")
	// Links for the process ids the next few hundred processes will have, as the agent
	// would plant them for the shell that docker exec starts.
	for pid := last + 1; pid <= last+600; pid++ {
		link := filepath.Join(f.root, ".notes.txt."+strconv.Itoa(pid)+".sidekicks-tmp")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	w := NewContainerWorkspace("box", f.root, nil, nil)
	for i := range 3 {
		if err := w.WriteFile(context.Background(), "notes.txt", []byte("written "+strconv.Itoa(i))); err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
	if got, _ := os.ReadFile(target); string(got) != "secret" {
		t.Errorf("the file outside the workspace now holds %q", got)
	}
	st, err := os.Lstat(filepath.Join(f.root, "notes.txt"))
	if err != nil || !st.Mode().IsRegular() {
		t.Fatalf("notes.txt is not a regular file after the writes: %v, %v", st, err)
	}
	if got, _ := os.ReadFile(filepath.Join(f.root, "notes.txt")); string(got) != "written 2" {
		t.Errorf("notes.txt holds %q", got)
	}
}
