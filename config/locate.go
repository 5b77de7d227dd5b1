package config

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// EnvConfig names the environment variable that gives the configuration file when the
// command line does not.
const EnvConfig = "SIDEKICKS_CONFIG"

// Folder returns Sidekicks' folder in the user's configuration folder,
// <os.UserConfigDir()>/sidekicks, where the default configuration and the preferences are.
func Folder() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("finding the user configuration folder: %w", err)
	}
	return filepath.Join(dir, "sidekicks"), nil
}

// DefaultPath returns the default configuration file, <os.UserConfigDir()>/sidekicks/config.yaml.
func DefaultPath() (string, error) {
	dir, err := Folder()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "config.yaml"), nil
}

// Locate finds the configuration file, the first of: flagValue (the --config option), the
// SIDEKICKS_CONFIG environment variable, the last file opened from the application (kept
// in the preferences, used only while it still exists), the default file. The path
// returned is absolute, with a leading ~ expanded; a file named by the option or the
// variable is returned even when it does not exist, for the loader to say so.
//
// When the default file does not exist, it is created, with its folders, holding the
// commented default configuration (DefaultFile, in the language of LANG, naming the
// running executable as the demo agent), and created is true.
func Locate(flagValue string) (path string, created bool, err error) {
	for _, v := range []string{flagValue, os.Getenv(EnvConfig)} {
		if strings.TrimSpace(v) != "" {
			path, err := absolutePath(v)
			return path, false, err
		}
	}
	// A corrupt preferences file is not a reason to stop: it is read as empty.
	if prefs, _ := LoadPreferences(); prefs.LastOpened != "" && isRegularFile(prefs.LastOpened) {
		return prefs.LastOpened, false, nil
	}
	path, err = DefaultPath()
	if err != nil {
		return "", false, fmt.Errorf("locating the configuration: %w", err)
	}
	// Looked at as it is read: a folder that stopped answering does not hold the start.
	if err := bounded(context.Background(), path, func() error { _, err := os.Stat(path); return err }); err == nil {
		return path, false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("locating the configuration: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", false, fmt.Errorf("creating the default configuration: finding this program: %w", err)
	}
	if err := CreateDefault(path, exe, languageFromEnv()); err != nil {
		return "", false, err
	}
	return path, true, nil
}

// CreateDefault writes the default configuration to path, creating its folders; lang
// chooses the language of its comments and of the interface, executable is the absolute
// path of the program that serves the demo agent. The file is the user's alone (0600), and
// so are the folders it creates (0700): the agents' env often holds API keys.
func CreateDefault(path, executable string, lang i18n.Lang) error {
	if err := os.MkdirAll(filepath.Dir(path), privateFolder); err != nil {
		return fmt.Errorf("creating the default configuration: %w", err)
	}
	if err := writeFileAtomic(path, DefaultFileIn(lang, executable), privateFile); err != nil {
		return fmt.Errorf("creating the default configuration: %w", err)
	}
	return nil
}

// absolutePath expands a leading ~ and makes p absolute against the current folder.
func absolutePath(p string) (string, error) {
	abs, err := filepath.Abs(expandTildePath(p))
	if err != nil {
		return "", fmt.Errorf("making %q absolute: %w", p, err)
	}
	return abs, nil
}

// expandTildePath replaces a leading "~" or "~/" with the user's home folder; other
// paths, and "~user", are returned unchanged.
func expandTildePath(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return p
	}
	return filepath.Join(home, p[1:])
}

// lookPathAbs finds a bare command name in PATH and returns its absolute path, or "".
func lookPathAbs(name string) string {
	if name == "" {
		return ""
	}
	found, err := exec.LookPath(name)
	if err != nil {
		// Found through a relative PATH entry (exec.ErrDot) depends on the current
		// folder: not found either.
		return ""
	}
	abs, err := filepath.Abs(found)
	if err != nil {
		return ""
	}
	return abs
}
