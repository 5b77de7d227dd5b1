package workbench

import (
	"path"
	"slices"

	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// fileTree is a workspace as far as it was listed: the entries of each folder listed,
// which folders are open, and the rows that makes. It does no I/O: the Files window lists
// folders on another goroutine and hands the results in.
type fileTree struct {
	folders map[string]*folder // by path relative to the workspace; "." is its root
}

// folder is what is known of one folder.
type folder struct {
	entries []runtime.FileInfo // folders first, then files, each group by name; no .git
	listed  bool
	open    bool
}

// treeRow is one row of the tree: an entry and how deep it is (the root is 0).
type treeRow struct {
	info  runtime.FileInfo
	depth int
}

// rootPath is the workspace's root in the tree.
const rootPath = "."

func newFileTree() *fileTree {
	return &fileTree{folders: map[string]*folder{rootPath: {open: true}}}
}

// folder returns what is known of a folder, creating its record.
func (t *fileTree) folder(p string) *folder {
	f := t.folders[p]
	if f == nil {
		f = &folder{}
		t.folders[p] = f
	}
	return f
}

// setListing records a folder's entries: folders first, .git left out (it is the agent's
// version control's, not something to browse or edit by hand here). A folder that could
// not be listed is closed (it may be gone).
func (t *fileTree) setListing(p string, entries []runtime.FileInfo, err error) {
	f := t.folder(p)
	if err != nil {
		if p != rootPath {
			f.open = false
		}
		f.entries, f.listed = nil, p == rootPath
		return
	}
	kept := make([]runtime.FileInfo, 0, len(entries))
	for _, e := range entries {
		if e.Name != ".git" {
			kept = append(kept, e)
		}
	}
	slices.SortStableFunc(kept, func(a, b runtime.FileInfo) int {
		switch {
		case a.Dir == b.Dir:
			return 0
		case a.Dir:
			return -1
		}
		return 1
	})
	f.entries, f.listed = kept, true
}

// openFolders returns the open folders that show (every folder above them open too), the
// root first: what a refresh lists again.
func (t *fileTree) openFolders() []string {
	out := []string{rootPath}
	var walk func(p string)
	walk = func(p string) {
		for _, e := range t.folders[p].entries {
			if f := t.folders[e.Path]; e.Dir && f != nil && f.open {
				out = append(out, e.Path)
				walk(e.Path)
			}
		}
	}
	walk(rootPath)
	return out
}

// rows returns the rows of the tree: the root, then every entry of each open folder under
// its folder.
func (t *fileTree) rows(rootName string) []treeRow {
	rows := []treeRow{{info: runtime.FileInfo{Name: rootName, Path: rootPath, Dir: true}}}
	var walk func(p string, depth int)
	walk = func(p string, depth int) {
		f := t.folders[p]
		if f == nil {
			return
		}
		for _, e := range f.entries {
			rows = append(rows, treeRow{info: e, depth: depth})
			if sub := t.folders[e.Path]; e.Dir && sub != nil && sub.open {
				walk(e.Path, depth+1)
			}
		}
	}
	walk(rootPath, 1)
	return rows
}

// entry returns the entry of a path in its folder's listing.
func (t *fileTree) entry(p string) (runtime.FileInfo, bool) {
	f := t.folders[parentOf(p)]
	if f == nil {
		return runtime.FileInfo{}, false
	}
	for _, e := range f.entries {
		if e.Path == p {
			return e, true
		}
	}
	return runtime.FileInfo{}, false
}

// has reports whether a folder's listing holds a name.
func (t *fileTree) has(dir, name string) bool {
	if f := t.folders[dir]; f != nil {
		for _, e := range f.entries {
			if e.Name == name {
				return true
			}
		}
	}
	return false
}

// parentOf returns the folder of a path ("." for an entry of the root).
func parentOf(p string) string {
	if d := path.Dir(p); d != "" {
		return d
	}
	return rootPath
}

// joinPath puts a name in a folder.
func joinPath(dir, name string) string {
	if dir == rootPath {
		return name
	}
	return dir + "/" + name
}
