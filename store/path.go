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
// absolute path with every symbolic link resolved (ConfigKey), so that two files with the
// same name in different folders have their own history and one file reached through a
// linked folder has one. <user data dir> is $XDG_DATA_HOME (when absolute) or ~/.local/share, or
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
	return historyFile(resolveLinks(abs), goos, getenv, home)
}

// LegacyPath returns where earlier Sidekicks kept the history of configPath: their hash
// covered the absolute path as given, links unresolved. It is "" when that is DefaultPath
// (no link on the way), or when either cannot be found.
func LegacyPath(configPath string) string {
	return legacyPath(configPath, goruntime.GOOS, os.Getenv, os.UserHomeDir)
}

func legacyPath(configPath, goos string, getenv func(string) string, home func() (string, error)) string {
	if configPath == "" {
		return ""
	}
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return ""
	}
	resolved := resolveLinks(abs)
	if resolved == abs {
		return ""
	}
	old, err := historyFile(abs, goos, getenv, home)
	if err != nil {
		return ""
	}
	return old
}

// ConfigKey is what identifies a configuration file for everything keyed by it (its
// history, the history's lock): its absolute path with every symbolic link resolved, so
// that the same file reached through a linked folder is the same configuration. When the
// file does not exist (yet), its closest existing folder is resolved and the rest of the
// path kept as written, so that it keeps its key once it is created there.
func ConfigKey(configPath string) (string, error) {
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return "", err
	}
	return resolveLinks(abs), nil
}

// resolveLinks resolves the symbolic links of the absolute, clean path abs. When the path
// cannot be resolved whole (it does not exist, a folder on the way cannot be read, a link
// loops), its longest prefix that can be resolved is, and the rest is kept as it is; abs
// itself when none can.
func resolveLinks(abs string) string {
	rest := ""
	for p := abs; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			if rest == "" {
				return r
			}
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs
		}
		if rest == "" {
			rest = filepath.Base(p)
		} else {
			rest = filepath.Join(filepath.Base(p), rest)
		}
		p = parent
	}
}

// historyFile is the history file of the configuration whose key is abs.
func historyFile(abs, goos string, getenv func(string) string, home func() (string, error)) (string, error) {
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
