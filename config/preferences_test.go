package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPreferencesRecentList(t *testing.T) {
	isolateUser(t)
	dir := t.TempDir()
	var files []string
	for i := range MaxRecentFiles + 2 {
		files = append(files, touchConfig(t, filepath.Join(dir, fmt.Sprintf("c%02d.yaml", i))))
	}
	p, err := LoadPreferences()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p.Opened(f)
	}
	p.Opened(files[5]) // opened again: back to the front, not twice
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}

	got, err := LoadPreferences()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{files[5], files[11], files[10], files[9], files[8], files[7], files[6], files[4], files[3], files[2]}
	if got.LastOpened != files[5] || !reflect.DeepEqual(got.Recent, want) {
		t.Errorf("after reload: last %q, recent %q\nwant last %q, recent %q", got.LastOpened, got.Recent, files[5], want)
	}

	// A file that no longer exists is not listed.
	if err := os.Remove(files[10]); err != nil {
		t.Fatal(err)
	}
	listed := got.RecentFiles()
	wantListed := append(append([]string{}, want[:2]...), want[3:]...)
	if !reflect.DeepEqual(listed, wantListed) {
		t.Errorf("RecentFiles = %q; want %q", listed, wantListed)
	}
}

func TestPreferencesRelativePathIsMadeAbsolute(t *testing.T) {
	isolateUser(t)
	dir := t.TempDir()
	t.Chdir(dir)
	if _, err := RememberOpened("team.yaml"); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPreferences()
	if err != nil || p.LastOpened != filepath.Join(dir, "team.yaml") {
		t.Errorf("LoadPreferences = %+v, %v; want the absolute path", p, err)
	}
}

func TestPreferencesMissingFileIsEmpty(t *testing.T) {
	isolateUser(t)
	p, err := LoadPreferences()
	if err != nil || p.LastOpened != "" || len(p.Recent) != 0 {
		t.Errorf("LoadPreferences without a file = %+v, %v; want empty, nil", p, err)
	}
}

func TestPreferencesCorruptFile(t *testing.T) {
	for name, content := range map[string]string{
		"not JSON":   "{\"lastOpened\": \"/a\",",
		"wrong type": `{"recent": "/a"}`,
		"binary":     "\x00\x1b[2J",
	} {
		t.Run(name, func(t *testing.T) {
			folder := isolateUser(t)
			prefsPath := filepath.Join(folder, "preferences.json")
			if err := os.MkdirAll(folder, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(prefsPath, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := LoadPreferences()
			if !errors.Is(err, ErrCorruptPreferences) {
				t.Errorf("LoadPreferences error = %v; want ErrCorruptPreferences", err)
			}
			if p.LastOpened != "" || len(p.Recent) != 0 {
				t.Errorf("corrupt preferences read as %+v; want empty", p)
			}
			// Nothing stops: remembering a file replaces the corrupt file.
			f := touchConfig(t, filepath.Join(t.TempDir(), "c.yaml"))
			if _, err := RememberOpened(f); err != nil {
				t.Fatalf("RememberOpened over a corrupt file: %v", err)
			}
			p, err = LoadPreferences()
			if err != nil || p.LastOpened != f || !reflect.DeepEqual(p.Recent, []string{f}) {
				t.Errorf("after RememberOpened: %+v, %v", p, err)
			}
		})
	}
}

func TestPreferencesDropRelativeEntries(t *testing.T) {
	folder := isolateUser(t)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	content := `{"lastOpened": "relative.yaml", "recent": ["/a.yaml", "", "b.yaml", "/a.yaml", "/c/../d.yaml"]}`
	if err := os.WriteFile(filepath.Join(folder, "preferences.json"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadPreferences()
	if err != nil || p.LastOpened != "" || !reflect.DeepEqual(p.Recent, []string{"/a.yaml", "/d.yaml"}) {
		t.Errorf("LoadPreferences = %+v, %v; want only the absolute, unique paths", p, err)
	}
}

func TestPreferencesSaveLeavesNoTemporaryFile(t *testing.T) {
	folder := isolateUser(t)
	if _, err := RememberOpened(touchConfig(t, filepath.Join(t.TempDir(), "c.yaml"))); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(folder)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "preferences.json" {
		t.Errorf("Sidekicks' folder holds %v; want preferences.json alone", entries)
	}
}
