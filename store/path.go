package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"unicode"
)

// DataDirEnv names the environment variable that replaces "<user data dir>/sidekicks".
const DataDirEnv = "SIDEKICKS_DATA_DIR"

// maxFileStem bounds the configuration's name in the history file's name, in runes.
const maxFileStem = 48

// DefaultPath returns where the history of the configuration file at configPath is kept:
// <user data dir>/sidekicks/history/<name>-<hash>.db, where name is the file's base name
// without its extension and hash the first 12 hexadecimal digits of the SHA-256 of its
// absolute path, so that two files with the same name in different folders have their own
// history. <user data dir> is $XDG_DATA_HOME (when absolute) or ~/.local/share, or
// ~/Library/Application Support on macOS; SIDEKICKS_DATA_DIR replaces
// <user data dir>/sidekicks. Nothing is created.
func DefaultPath(configPath string) (string, error) {
	return defaultPath(configPath, goruntime.GOOS, os.Getenv, os.UserHomeDir)
}

// defaultPath is DefaultPath with the platform, the environment and the home folder given,
// so that every platform's rule is tested on any machine.
func defaultPath(configPath, goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if configPath == "" {
		return "", errors.New("finding the history file: no configuration file")
	}
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return "", fmt.Errorf("finding the history file of %q: %w", configPath, err)
	}
	dir, err := sidekicksDataDir(goos, getenv, home)
	if err != nil {
		return "", fmt.Errorf("finding the history file of %q: %w", abs, err)
	}
	sum := sha256.Sum256([]byte(abs))
	name := fileStem(abs) + "-" + hex.EncodeToString(sum[:])[:12] + ".db"
	return filepath.Join(dir, "history", name), nil
}

// sidekicksDataDir returns <user data dir>/sidekicks, or SIDEKICKS_DATA_DIR.
func sidekicksDataDir(goos string, getenv func(string) string, home func() (string, error)) (string, error) {
	if d := getenv(DataDirEnv); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			return "", fmt.Errorf("reading %s: %w", DataDirEnv, err)
		}
		return abs, nil
	}
	switch goos {
	case "darwin", "ios":
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("finding the home folder: %w", err)
		}
		return filepath.Join(h, "Library", "Application Support", "sidekicks"), nil
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "sidekicks"), nil
		}
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("finding the home folder: %w", err)
		}
		return filepath.Join(h, "AppData", "Local", "sidekicks"), nil
	default:
		// The XDG base directory specification says a relative value is to be ignored.
		if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "sidekicks"), nil
		}
		h, err := home()
		if err != nil {
			return "", fmt.Errorf("finding the home folder: %w", err)
		}
		return filepath.Join(h, ".local", "share", "sidekicks"), nil
	}
}

// fileStem turns the configuration's base name without extension into something safe in a
// file name on every system: letters and digits of any script, '-', '_' and '.' are kept,
// anything else becomes '_'; it never starts with '.' and is never empty.
func fileStem(path string) string {
	base := filepath.Base(path)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	var b strings.Builder
	n := 0
	for _, r := range base {
		if n == maxFileStem {
			break
		}
		switch {
		case r == unicode.ReplacementChar:
			r = '_'
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '_', r == '.':
		default:
			r = '_'
		}
		b.WriteRune(r)
		n++
	}
	stem := strings.TrimLeft(b.String(), ".")
	if stem == "" {
		return "config"
	}
	return stem
}
