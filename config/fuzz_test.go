package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader: it never panics, every diagnostic has a
// line and the file, no message carries a raw control character, and a Config comes back
// exactly when there is no error.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"../schema/testdata/valid/*.yaml", "../schema/testdata/invalid/*.yaml", "../examples/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	for _, s := range []string{
		"", "~", "-", "---\n---\n", "{", "[", "'", "\"", "&a *a", "a: &a [*a]",
		"version: 1\nagents:\n  - name: a\n   command: mm\n",
		"version: 1\nagents: [{name: a, command: mm, runtime: {type: local, container: c}}]\n",
		"version: 1\nui: {language: fr}\nagents: [{name: \"\\e[31m\", comand: x}]\n",
		"version: 1\nagents: []\nchannels: [{name: X}, {name: x, agents: [a, a]}]\n",
		"version: 1\nlimits: {stopIdleAgentsAfter: 99999999999h, maxRunningAgents: 1e400}\nagents: []\n",
		"? [a]\n: b\n", "<<: {a: 1}\n", "\xff\xfe", "a: !!binary AAAA\n", "%YAML 1.1\n---\na: 1\n",
	} {
		f.Add([]byte(s))
	}
	path := filepath.Join(f.TempDir(), "config.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, d := Parse(path, data)
		checkInvariants(t, path, cfg, d)
		_ = LanguageOf(data)
	})
}
