package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// MaxRecentFiles is how many configuration files the recent list keeps.
const MaxRecentFiles = 10

// maxPreferencesSize bounds what LoadPreferences reads; the file holds a dozen paths.
const maxPreferencesSize = 1 << 20

// ErrCorruptPreferences is wrapped by LoadPreferences' error when preferences.json cannot
// be understood (it is not JSON, not a regular file, or too large); the preferences
// returned are then empty but usable, and saving them replaces the damaged file, kept
// beside the new one (see Save).
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
	// damaged is true when the file read could not be understood: Save keeps it aside
	// before writing, and says where in kept.
	damaged bool
	kept    string
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
	// Read as the configuration is (see readBounded): a regular file, bounded, in time.
	data, err := readBounded(context.Background(), path, maxPreferencesSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, nil
	case errors.Is(err, ErrNotRegular), errors.Is(err, errIsFolder), errors.Is(err, errTooLarge):
		// Not something Sidekicks wrote: damaged, kept aside by the next Save.
		p.damaged = true
		return p, fmt.Errorf("reading the preferences %s: %w: %w", path, ErrCorruptPreferences, err)
	case err != nil:
		return p, fmt.Errorf("reading the preferences %s: %w", path, err)
	}
	var read Preferences
	if err := json.Unmarshal(data, &read); err != nil {
		p.damaged = true
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
//
// A file that was read as damaged (see ErrCorruptPreferences) is never overwritten: it is
// first renamed beside itself, preferences.json.damaged-<UTC time>, which KeptDamaged then
// returns; when it cannot be kept so, nothing is written.
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
	if p.damaged {
		kept, err := keepDamaged(p.path, time.Now())
		if err != nil {
			return fmt.Errorf("saving the preferences: keeping the damaged file: %w", err)
		}
		p.damaged, p.kept = false, kept
	}
	if err := writeFileAtomic(p.path, append(data, '\n'), privateFile); err != nil {
		return fmt.Errorf("saving the preferences: %w", err)
	}
	return nil
}

// KeptDamaged returns where Save kept the damaged preferences file it replaced, "" when it
// replaced none.
func (p *Preferences) KeptDamaged() string { return p.kept }

// keepDamaged renames the file at path to path.damaged-<UTC time> (with -2, -3… when
// that name is taken) and returns the new name; a file that is already gone needs no
// keeping ("", nil).
func keepDamaged(path string, now time.Time) (string, error) {
	base := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	for i := 1; i <= 100; i++ {
		kept := base
		if i > 1 {
			kept = fmt.Sprintf("%s-%d", base, i)
		}
		if _, err := os.Lstat(kept); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		err := os.Rename(path, kept)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		return kept, nil
	}
	return "", fmt.Errorf("%s: every name is taken", base)
}

// RememberOpened records in the preferences that the configuration file at path was
// opened from the application, and saves them. A damaged preferences file is replaced,
// kept beside the new one: kept says where ("" when there was none to keep).
func RememberOpened(path string) (kept string, err error) {
	return RememberOpenedFrom("", path)
}

// RememberOpenedFrom is RememberOpened for a file opened from the application while it ran
// on the configuration left: left goes into the recent list (it is a file the user opened,
// and Recent… is how to go back to it), path becomes the last opened file. The file a
// start found by --config, SIDEKICKS_CONFIG or the default is recorded only so, once the
// user leaves it from the application: starting on it changes nothing.
func RememberOpenedFrom(left, path string) (kept string, err error) {
	p, err := LoadPreferences()
	if err != nil && !errors.Is(err, ErrCorruptPreferences) {
		return "", err
	}
	if left != "" {
		if abs, err := absolutePath(left); err == nil {
			p.pushRecent(abs)
		}
	}
	p.Opened(path)
	if err := p.Save(); err != nil {
		return "", err
	}
	return p.KeptDamaged(), nil
}

// KeepDamagedPreferences renames a preferences file that cannot be understood beside
// itself and writes empty preferences in its place, so that a start that records nothing
// still says once that it was damaged; kept says where it went ("" when it was not
// damaged). Preferences that are fine are left untouched.
func KeepDamagedPreferences() (kept string, err error) {
	p, err := LoadPreferences()
	if err == nil || !errors.Is(err, ErrCorruptPreferences) {
		return "", nil
	}
	if err := p.Save(); err != nil {
		return "", err
	}
	return p.KeptDamaged(), nil
}
