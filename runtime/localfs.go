package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// LocalWorkspace is a workspace in a folder of this computer.
//
// Confinement is checked twice. First, every path is resolved component by component,
// following symbolic links, and refused with ErrOutside when it ends outside the root;
// the operation then uses the resolved path, which has no link left. Second, the
// operation itself goes through os.Root, which refuses to leave the root even if a link
// was planted between the check and the use (time of check to time of use): such a race
// can make the operation fail, never escape.
type LocalWorkspace struct {
	root    string
	protect *protector
	own     OwnFiles
}

// NewLocalWorkspace returns the workspace of the folder root (absolute), protecting the
// files that match the patterns.
func NewLocalWorkspace(root string, protect []string) *LocalWorkspace {
	return &LocalWorkspace{root: filepath.Clean(root), protect: newProtector(protect)}
}

// Root returns the folder.
func (w *LocalWorkspace) Root() string { return w.root }

// Protected reports whether changes to the path are refused: it matches a protection
// pattern, or it is one of Sidekicks' own files.
func (w *LocalWorkspace) Protected(rel string) bool {
	r, err := w.clean(rel)
	return err == nil && (w.protect.match(r) || w.Own(rel) != OwnNone)
}

// Own says which of Sidekicks' own files the path is, every symbolic link followed.
func (w *LocalWorkspace) Own(rel string) OwnKind {
	if len(w.own) == 0 {
		return OwnNone
	}
	clean, err := w.clean(rel)
	if err != nil {
		return OwnNone
	}
	realRoot := w.realRoot()
	real, err := resolveIn(realRoot, clean, true)
	if err != nil {
		return OwnNone
	}
	return ownAt(w.own.resolve(), realRoot, real)
}

// ownAt says which of the own files real (relative to realRoot, without links) is.
func ownAt(own ownPaths, realRoot, real string) OwnKind {
	return own.lookup(filepath.Join(realRoot, filepath.FromSlash(real)))
}

// refuse returns why clean, resolved as real (relative to the real root), may not be
// changed: one of Sidekicks' own files (an *OwnFileError), or a protected file; nil when
// it may.
func (w *LocalWorkspace) refuse(clean, real string) error {
	return w.refuseIn(w.own.resolve(), w.realRoot(), clean, real)
}

// refuseIn is refuse with the own files resolved and the real root found, for the many
// paths of a walk.
func (w *LocalWorkspace) refuseIn(own ownPaths, realRoot, clean, real string) error {
	if k := ownAt(own, realRoot, real); k != OwnNone {
		return &OwnFileError{Path: clean, Kind: k}
	}
	if w.protect.match(clean) || w.protect.match(real) {
		return ErrProtected
	}
	return nil
}

// clean is cleanRel, also accepting an absolute path under the root's real path (an agent
// that asks the system for its working folder gets that one, /private/tmp/… for /tmp/…
// on macOS).
func (w *LocalWorkspace) clean(rel string) (string, error) {
	r, err := cleanRel(w.root, rel)
	if errors.Is(err, ErrOutside) && filepath.IsAbs(rel) {
		if real := w.realRoot(); real != w.root {
			if r2, err2 := cleanRel(real, rel); err2 == nil {
				return r2, nil
			}
		}
	}
	return r, err
}

// ReadFile returns the content of a regular file of at most max bytes. What is not a
// regular file is refused before it is opened for reading, and the file is opened without
// blocking (a named pipe swapped in meanwhile would block open(2)) then checked again, so
// a swap is caught too. At most max+1 bytes are read: a bigger file, or one that grows
// past max while it is read, is refused with a *TooLargeError.
func (w *LocalWorkspace) ReadFile(ctx context.Context, rel string, max int64) ([]byte, error) {
	var data []byte
	err := w.with(ctx, rel, true, func(root *os.Root, _, real string) error {
		f, fi, err := openRegular(root, real, max)
		if err != nil {
			return err
		}
		defer f.Close()
		data, err = readAtMost(ctx, f, fi.Size(), max)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", rel, err)
	}
	return data, nil
}

// ReadLines returns the lines [line, line+limit) of a regular file, read as far as
// needed through a small buffer, refusing a text over max bytes. It opens the file as
// ReadFile does, whatever its size.
func (w *LocalWorkspace) ReadLines(ctx context.Context, rel string, line, limit int, max int64) ([]byte, error) {
	var data []byte
	err := w.with(ctx, rel, true, func(root *os.Root, _, real string) error {
		f, _, err := openRegular(root, real, math.MaxInt64)
		if err != nil {
			return err
		}
		defer f.Close()
		data, err = selectLines(ctx, f, line, limit, max)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading %q: %w", rel, err)
	}
	return data, nil
}

// openRegular opens the regular file real (resolved, without links) of at most max bytes
// for reading. What is not a regular file is refused before it is opened, and the file is
// opened without blocking (a named pipe swapped in meanwhile would block open(2)), then
// checked again: a swap is refused too.
func openRegular(root *os.Root, real string, max int64) (*os.File, fs.FileInfo, error) {
	fi, err := root.Lstat(real)
	if err != nil {
		return nil, nil, err
	}
	if err := readable(fi, max); err != nil {
		return nil, nil, err
	}
	f, err := root.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil {
		err = readable(fi, max)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// readable refuses what ReadFile must not read: a folder, what is not a regular file, a
// file over max.
func readable(fi fs.FileInfo, max int64) error {
	switch {
	case fi.IsDir():
		return errIsFolder
	case !fi.Mode().IsRegular():
		return ErrNotRegular
	case fi.Size() > max:
		return &TooLargeError{Size: fi.Size(), Limit: max}
	}
	return nil
}

// readChunk is how much readAtMost reads between two looks at its context.
const readChunk = 1 << 20

// readAtMost reads r to its end, refusing with a *TooLargeError once more than max bytes
// came (it reads at most max+1). size is the expected size, to allocate once.
func readAtMost(ctx context.Context, r io.Reader, size, max int64) ([]byte, error) {
	buf := make([]byte, 0, min(size, max)+1)
	lr := io.LimitReader(r, max+1)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):min(cap(buf), len(buf)+readChunk)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, &TooLargeError{Limit: max}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

var errIsFolder = errors.New("is a folder")

// WriteFile replaces a file atomically: a temporary file in the same folder, synced, then
// renamed over the file. An existing file keeps its permissions; a new one gets 0644.
func (w *LocalWorkspace) WriteFile(ctx context.Context, rel string, data []byte) error {
	err := w.with(ctx, rel, true, func(root *os.Root, clean, real string) error {
		if err := w.refuse(clean, real); err != nil {
			return err
		}
		if real == "." {
			return errIsFolder
		}
		mode := fs.FileMode(0o644)
		if fi, err := root.Stat(real); err == nil {
			if fi.IsDir() {
				return errIsFolder
			}
			mode = fi.Mode().Perm()
		}
		dir := path.Dir(real)
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return writeAtomic(root, real, data, mode)
	})
	if err != nil {
		return fmt.Errorf("writing %q: %w", rel, err)
	}
	return nil
}

// writeAtomic writes data to a temporary file beside name, syncs it, then renames it.
func writeAtomic(root *os.Root, name string, data []byte, mode fs.FileMode) error {
	dir := path.Dir(name)
	var tmp string
	var f *os.File
	for range 10 {
		var b [6]byte
		_, _ = rand.Read(b[:])
		tmp = path.Join(dir, "."+path.Base(name)+"."+hex.EncodeToString(b[:])+".sidekicks-tmp")
		var err error
		f, err = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	if f == nil {
		return errors.New("no free temporary name")
	}
	ok := false
	defer func() {
		if !ok {
			_ = f.Close()
			_ = root.Remove(tmp)
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		_ = root.Remove(tmp)
		ok = true
		return err
	}
	if err := root.Rename(tmp, name); err != nil {
		_ = root.Remove(tmp)
		ok = true
		return err
	}
	ok = true
	if d, err := root.Open(dir); err == nil {
		_ = d.Sync() // makes the rename durable where the file system supports it
		_ = d.Close()
	}
	return nil
}

// List returns the entries of a folder, sorted by name.
func (w *LocalWorkspace) List(ctx context.Context, rel string) ([]FileInfo, error) {
	var out []FileInfo
	realRoot, own := w.realRoot(), w.own.resolve()
	err := w.with(ctx, rel, true, func(root *os.Root, clean, real string) error {
		d, err := root.Open(real)
		if err != nil {
			return err
		}
		defer d.Close()
		entries, err := d.ReadDir(-1)
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := path.Join(clean, e.Name())
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			ownKind := ownAt(own, realRoot, path.Join(real, e.Name()))
			if fi.Mode()&fs.ModeSymlink != 0 {
				// Describe what a link leads to when that stays inside.
				if target, err := resolveIn(realRoot, path.Join(real, e.Name()), true); err == nil {
					ownKind = ownAt(own, realRoot, target)
					if tfi, err := root.Stat(target); err == nil {
						fi = tfi
					}
				}
			}
			out = append(out, FileInfo{
				Name: e.Name(), Path: p, Dir: fi.IsDir(), Size: fi.Size(),
				ModTime: fi.ModTime(), Protected: w.protect.match(p) || ownKind != OwnNone, Own: ownKind,
			})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing %q: %w", rel, err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Mkdir creates a folder and its parents.
func (w *LocalWorkspace) Mkdir(ctx context.Context, rel string) error {
	err := w.with(ctx, rel, true, func(root *os.Root, clean, real string) error {
		if err := w.refuse(clean, real); err != nil {
			return err
		}
		return root.MkdirAll(real, 0o755)
	})
	if err != nil {
		return fmt.Errorf("creating folder %q: %w", rel, err)
	}
	return nil
}

// Rename moves a file or a folder (a symbolic link is moved itself, not what it points
// to). The destination must not exist.
func (w *LocalWorkspace) Rename(ctx context.Context, from, to string) error {
	err := w.with(ctx, from, false, func(root *os.Root, cleanFrom, realFrom string) error {
		cleanTo, err := w.clean(to)
		if err != nil {
			return err
		}
		realTo, err := resolveIn(w.realRoot(), cleanTo, false)
		if err != nil {
			return err
		}
		if realFrom == "." || realTo == "." {
			return errIsRoot
		}
		for _, p := range [][2]string{{cleanFrom, realFrom}, {cleanTo, realTo}} {
			if err := w.refuse(p[0], p[1]); err != nil {
				return fmt.Errorf("%q: %w", p[0], err)
			}
		}
		fi, err := root.Lstat(realFrom)
		if err != nil {
			return err
		}
		if _, err := root.Lstat(realTo); err == nil {
			return fmt.Errorf("%q: %w", to, fs.ErrExist)
		}
		if fi.IsDir() {
			// Neither what the folder holds nor where it would land may be protected.
			own, realRoot := w.own.resolve(), w.realRoot()
			if err := w.walkProtected(ctx, root, realFrom, func(p string) error {
				if err := w.refuseIn(own, realRoot, p, p); err != nil {
					return err
				}
				moved := realTo + p[len(realFrom):]
				return w.refuseIn(own, realRoot, moved, moved)
			}); err != nil {
				return err
			}
		}
		if err := root.MkdirAll(path.Dir(realTo), 0o755); err != nil {
			return err
		}
		return root.Rename(realFrom, realTo)
	})
	if err != nil {
		return fmt.Errorf("renaming %q to %q: %w", from, to, err)
	}
	return nil
}

var errIsRoot = errors.New("is the workspace folder itself")

// Delete removes a file, a symbolic link (not what it points to), or a folder with
// everything in it unless it holds a protected file.
func (w *LocalWorkspace) Delete(ctx context.Context, rel string) error {
	err := w.with(ctx, rel, false, func(root *os.Root, clean, real string) error {
		if real == "." || clean == "." {
			return errIsRoot
		}
		if err := w.refuse(clean, real); err != nil {
			return err
		}
		fi, err := root.Lstat(real)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			own, realRoot := w.own.resolve(), w.realRoot()
			if err := w.walkProtected(ctx, root, real, func(p string) error { return w.refuseIn(own, realRoot, p, p) }); err != nil {
				return err
			}
		}
		return root.RemoveAll(real)
	})
	if err != nil {
		return fmt.Errorf("deleting %q: %w", rel, err)
	}
	return nil
}

// walkProtected walks the folder dir (not following links) until ctx is done, and returns
// the refusal of the first entry refuse refuses, wrapped as `contains "PATH": …`.
func (w *LocalWorkspace) walkProtected(ctx context.Context, root *os.Root, dir string, refuse func(string) error) error {
	return fs.WalkDir(root.FS(), dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := refuse(p); err != nil {
			return fmt.Errorf("contains %q: %w", p, err)
		}
		return nil
	})
}

// with checks that ctx is not done, cleans rel, opens the root, resolves rel to a path without symbolic links
// (following the last name too when follow is set) and calls f with the clean and the
// resolved relative paths.
func (w *LocalWorkspace) with(ctx context.Context, rel string, follow bool, f func(root *os.Root, clean, real string) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	clean, err := w.clean(rel)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(w.root)
	if err != nil {
		return fmt.Errorf("opening the workspace: %w", err)
	}
	defer root.Close()
	realRoot := w.realRoot()
	real, err := resolveIn(realRoot, clean, follow)
	if err != nil {
		return err
	}
	err = f(root, clean, real)
	if err != nil && !errors.Is(err, ErrOutside) && !errors.Is(err, ErrProtected) {
		// os.Root refused something the check accepted: a link appeared meanwhile.
		if _, again := resolveIn(realRoot, clean, follow); errors.Is(again, ErrOutside) {
			return again
		}
	}
	return err
}

// realRoot is the root folder with its own symbolic links resolved.
func (w *LocalWorkspace) realRoot() string {
	if r, err := filepath.EvalSymlinks(w.root); err == nil {
		return r
	}
	return w.root
}

// maxLinks bounds the symbolic links followed in one path, like the kernel does.
const maxLinks = 40

// resolveIn resolves the clean relative path rel below realRoot name by name, following
// symbolic links (the last name only when follow is set), and returns the result relative
// to realRoot, or an error wrapping ErrOutside when it leaves realRoot. Names that do not
// exist yet are taken as they are.
func resolveIn(realRoot, rel string, follow bool) (string, error) {
	pending := splitNames(rel)
	cur := realRoot
	links := 0
	for i := 0; i < len(pending); i++ {
		next := filepath.Join(cur, pending[i])
		if i == len(pending)-1 && !follow {
			cur = next
			break
		}
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			cur = filepath.Join(append([]string{next}, pending[i+1:]...)...)
			break
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%q: too many symbolic links", rel)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cur, target)
		}
		pending = append(splitNames(filepath.Clean(target)), pending[i+1:]...)
		cur = string(filepath.Separator)
		i = -1
	}
	if !within(filepath.ToSlash(realRoot), filepath.ToSlash(cur)) {
		return "", fmt.Errorf("%q: %w", rel, ErrOutside)
	}
	r, err := filepath.Rel(realRoot, cur)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(r), nil
}

// splitNames splits a path into its names, without empty ones or ".".
func splitNames(p string) []string {
	var out []string
	for _, n := range strings.Split(filepath.ToSlash(p), "/") {
		if n != "" && n != "." {
			out = append(out, n)
		}
	}
	return out
}
