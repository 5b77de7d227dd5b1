package config

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sort"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// TrustFileName is the file, in the state folder, that lists the project agents files the
// user allowed: one line per file, the SHA-256 of its content in hexadecimal, a tab, then
// its absolute path.
const TrustFileName = "trusted-projects"

// trustFileMode and trustDirMode are the permissions the trust store is created with.
const (
	trustFileMode = os.FileMode(0o600)
	trustDirMode  = os.FileMode(0o700)
)

// StateDir returns Sidekicks' state folder: $SIDEKICKS_STATE_DIR, or "sidekicks" in
// $XDG_STATE_HOME (else ~/.local/state) on Linux and in ~/Library/Logs on macOS.
func StateDir() (string, error) {
	if d := os.Getenv("SIDEKICKS_STATE_DIR"); d != "" {
		return d, nil
	}
	home, err := os.UserHomeDir()
	if goruntime.GOOS == "darwin" {
		if err != nil {
			return "", fmt.Errorf("finding the state folder: %w", err)
		}
		return filepath.Join(home, "Library", "Logs", "sidekicks"), nil
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "sidekicks"), nil
	}
	if err != nil {
		return "", fmt.Errorf("finding the state folder: %w", err)
	}
	return filepath.Join(home, ".local", "state", "sidekicks"), nil
}

// TrustFile returns the path of the trust store: StateDir()/trusted-projects.
func TrustFile() (string, error) {
	d, err := StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, TrustFileName), nil
}

// contentHash is the hexadecimal SHA-256 of data.
func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// trustKey is how a path is kept in the store: absolute and cleaned.
func trustKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// maxTrustSize bounds what readTrust reads: a line is about a hundred bytes.
const maxTrustSize = 8 << 20

// readTrust returns the store's lines as path → hash. A missing store is empty. It is
// read as Sidekicks' other own files are (see readBounded).
func readTrust(file string) (map[string]string, error) {
	data, err := readBounded(context.Background(), file, maxTrustSize)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		hash, path, ok := strings.Cut(sc.Text(), "\t")
		if ok && len(hash) == sha256.Size*2 && path != "" {
			out[path] = hash
		}
	}
	return out, sc.Err()
}

// Trusted says whether the user allowed the project agents file at path with exactly
// this content. Any problem reading the store counts as not allowed.
func Trusted(path string, data []byte) bool {
	file, err := TrustFile()
	if err != nil {
		return false
	}
	entries, err := readTrust(file)
	if err != nil {
		return false
	}
	return entries[trustKey(path)] == contentHash(data)
}

// Allow records that the user allowed the project agents file at path with this content:
// a later content (another hash) is not allowed until it is allowed again. The store is
// created 0600 in a 0700 folder and replaced whole (written aside, then renamed).
func Allow(path string, data []byte) error {
	file, err := TrustFile()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), trustDirMode); err != nil {
		return fmt.Errorf("allowing %s: %w", path, err)
	}
	entries, err := readTrust(file)
	if err != nil {
		return fmt.Errorf("allowing %s: %w", path, err)
	}
	key := trustKey(path)
	if strings.ContainsAny(key, "\n\r\t") {
		return fmt.Errorf("allowing %q: the path holds a line break or a tab", path)
	}
	entries[key] = contentHash(data)
	var b strings.Builder
	for p, h := range entries {
		b.WriteString(h + "\t" + p + "\n")
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), TrustFileName+".*")
	if err != nil {
		return fmt.Errorf("allowing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(trustFileMode); err != nil {
		tmp.Close()
		return fmt.Errorf("allowing %s: %w", path, err)
	}
	if _, err := tmp.WriteString(b.String()); err != nil {
		tmp.Close()
		return fmt.Errorf("allowing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("allowing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("allowing %s: %w", path, err)
	}
	return nil
}

// DescribeProjectAgent is what the user reviews before allowing a project agent, in lang:
// its name and title, the command line it runs (the program as resolved, then its
// arguments), its workspace and the variables it adds. Every text is made printable.
func DescribeProjectAgent(lang i18n.Lang, a Agent) []string {
	program := a.CommandPath
	if program == "" {
		program = a.Command
	}
	words := []string{ShellWord(program)}
	for _, arg := range a.Args {
		words = append(words, ShellWord(arg))
	}
	lines := []string{
		"@" + a.Name + " (" + quoteIn(lang, a.Title) + ")",
		"  " + projectText(lang, "", pDescCommand, strings.Join(words, " ")),
		"  " + projectText(lang, "", pDescWorkspace, a.Workspace),
	}
	names := make([]string, 0, len(a.Env))
	for k := range a.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		lines = append(lines, "  "+projectText(lang, "", pDescEnv, k+"="+ShellWord(a.Env[k])))
	}
	return lines
}
