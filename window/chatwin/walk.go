package chatwin

import (
	"context"
	"strings"
	"time"
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/runtime"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// The bounds of one walk of a workspace, besides maxFiles: how many folders it lists (a
// link that leads back up would otherwise make it endless), how deep it goes, and how long
// it may take (a container's folders are listed through docker exec).
const (
	maxWalkDirs  = 20000
	maxWalkDepth = 32
	walkTimeout  = 15 * time.Second
)

// Walker lists the files an @ mention can name, relative to the workspace with slashes:
// those keep accepts (all when keep is nil), at most limit of them. cut says that the walk
// stopped before the end of the workspace (limit files kept, too many folders, time out):
// files it did not reach may match too. Tests and the application may give their own;
// WalkWorkspace is the usual one.
type Walker func(ctx context.Context, keep func(path string) bool, limit int) (files []string, cut bool, err error)

// WalkWorkspace returns the Walker of a workspace: the workspace listed from its root,
// breadth first (so that a walk cut at the limit keeps the files nearest the root),
// each folder in name order, .git excluded, each file kept or not as it is met (so that
// the limit counts the files that match, not all the files walked). Files whose path
// holds white space or a control character are left out: a mention cannot name them
// (chat.SplitMentions ends the word at white space).
func WalkWorkspace(ws runtime.Workspace) Walker {
	return func(ctx context.Context, keep func(string) bool, limit int) ([]string, bool, error) {
		var files []string
		queue := []string{"."}
		var firstErr error
		dirs := 0
		for ; len(queue) > 0 && len(files) < limit && dirs < maxWalkDirs; dirs++ {
			if err := ctx.Err(); err != nil {
				return files, true, err
			}
			dir := queue[0]
			queue = queue[1:]
			entries, err := ws.List(ctx, dir)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			for _, e := range entries {
				p := e.Path
				switch {
				case !mentionable(p):
				case e.Dir:
					if e.Name != ".git" && strings.Count(p, "/") < maxWalkDepth {
						queue = append(queue, p)
					}
				case keep != nil && !keep(p):
				case len(files) < limit:
					files = append(files, p)
				default:
					return files, true, nil // a file that matches is left out
				}
			}
		}
		cut := len(queue) > 0 // the folders left, past maxWalkDirs or the limit
		if len(files) == 0 && firstErr != nil {
			return nil, cut, firstErr
		}
		return files, cut, nil
	}
}

// mentionable reports whether a path can follow an @: no white space, no control character.
func mentionable(p string) bool {
	return p != "" && safetext.Line(p) == p && !strings.ContainsFunc(p, func(r rune) bool {
		return unicode.IsSpace(r) || r == 0xfffd
	})
}
