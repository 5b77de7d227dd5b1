package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxRecentFiles is how many configuration files the recent list keeps.
const MaxRecentFiles = 10

// maxPreferencesSize bounds what LoadPreferences reads; the file holds a dozen paths.
const maxPreferencesSize = 1 << 20

// ErrCorruptPreferences is wrapped by LoadPreferences' error when preferences.json cannot
// be understood; the preferences returned are then empty but usable, and saving them
// replaces the corrupt file.
var ErrCorruptPreferences = errors.New("the preferences file is corrupt")

// Preferences is what Sidekicks remembers between runs, in
// <os.UserConfigDir()>/sidekicks/preferences.json: the configuration file opened last and
// the recent ones.
type Preferences struct {
	// LastOpened is the absolute path of the configuration file opened last from the
	// application; Locate uses it while it exists.
	LastOpened string `json:"lastOpened,omitempty"`
	// Recent holds absolute paths, the most recent first, without duplicates, at most
	// MaxRecentFiles. Use RecentFiles to leave out those that no longer exist.
	Recent []string `json:"recent,omitempty"`

	path string
}

// PreferencesPath returns <os.UserConfigDir()>/sidekicks/preferences.json.
func PreferencesPath() (string, error) {
	dir, err := Folder()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "preferences.json"), nil
}

// LoadPreferences reads the preferences. A missing file gives empty preferences and no
// error. A corrupt file never stops anything: the preferences returned are empty (and
// can be saved), and the error, wrapping ErrCorruptPreferences, says what was wrong.
func LoadPreferences() (Preferences, error) {
	path, err := PreferencesPath()
	if err != nil {
		return Preferences{}, fmt.Errorf("reading the preferences: %w", err)
	}
	return loadPreferencesFrom(path)
}

func loadPreferencesFrom(path string) (Preferences, error) {
	p := Preferences{path: path}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("reading the preferences: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPreferencesSize+1))
	if err != nil {
		return p, fmt.Errorf("reading the preferences %s: %w", path, err)
	}
	if len(data) > maxPreferencesSize {
		return p, fmt.Errorf("reading the preferences %s: %w: larger than %d bytes", path, ErrCorruptPreferences, maxPreferencesSize)
	}
	var read Preferences
	if err := json.Unmarshal(data, &read); err != nil {
		return p, fmt.Errorf("reading the preferences %s: %w: %v", path, ErrCorruptPreferences, err)
	}
	if filepath.IsAbs(read.LastOpened) {
		p.LastOpened = filepath.Clean(read.LastOpened)
	}
	for i := len(read.Recent) - 1; i >= 0; i-- {
		if filepath.IsAbs(read.Recent[i]) {
			p.pushRecent(filepath.Clean(read.Recent[i]))
		}
	}
	return p, nil
}

// Opened records that the configuration file at path was opened from the application: it
// becomes the last opened file and the head of the recent list. Save writes it.
func (p *Preferences) Opened(path string) {
	if abs, err := absolutePath(path); err == nil {
		path = abs
	}
	p.LastOpened = path
	p.pushRecent(path)
}

// pushRecent puts path first in the recent list, removing it from further down and
// dropping the oldest past MaxRecentFiles.
func (p *Preferences) pushRecent(path string) {
	recent := make([]string, 0, MaxRecentFiles)
	recent = append(recent, path)
	for _, r := range p.Recent {
		if r != path && len(recent) < MaxRecentFiles {
			recent = append(recent, r)
		}
	}
	p.Recent = recent
}

// RecentFiles returns the recent list without the files that no longer exist, the most
// recent first.
func (p *Preferences) RecentFiles() []string {
	var out []string
	for _, r := range p.Recent {
		if isRegularFile(r) {
			out = append(out, r)
		}
	}
	return out
}

// Save writes the preferences atomically (a temporary file renamed over the old one), so
// that two Sidekicks saving at once, or a crash, never leave half a file. The file is the
// user's alone (0600), in a folder created the user's alone (0700): it names the files
// the user works on.
func (p *Preferences) Save() error {
	if p.path == "" {
		path, err := PreferencesPath()
		if err != nil {
			return fmt.Errorf("saving the preferences: %w", err)
		}
		p.path = path
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("saving the preferences: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(p.path), privateFolder); err != nil {
		return fmt.Errorf("saving the preferences: %w", err)
	}
	if err := writeFileAtomic(p.path, append(data, '\n'), privateFile); err != nil {
		return fmt.Errorf("saving the preferences: %w", err)
	}
	return nil
}

// RememberOpened records in the preferences that the configuration file at path was
// opened from the application, and saves them. A corrupt preferences file is replaced.
func RememberOpened(path string) error {
	p, err := LoadPreferences()
	if err != nil && !errors.Is(err, ErrCorruptPreferences) {
		return err
	}
	p.Opened(path)
	return p.Save()
}
