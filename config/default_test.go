package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

func TestDefaultFileLoadsWithoutAnyDiagnostic(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		path := filepath.Join(t.TempDir(), "config.yaml")
		cfg, diags := Parse(path, DefaultFileIn(lang, exe))
		if len(diags) != 0 {
			t.Fatalf("%s: default file: %q", lang, diags)
		}
		if cfg.UI.Language != lang {
			t.Errorf("%s: ui.language = %q", lang, cfg.UI.Language)
		}
		if len(cfg.Agents) != 1 || cfg.Agents[0].Name != "demo" || cfg.Agents[0].CommandPath != exe ||
			strings.Join(cfg.Agents[0].Args, " ") != "demo-agent" || cfg.Agents[0].Runtime.Type != "local" {
			t.Errorf("%s: agents = %+v; want the demo agent alone, on %s", lang, cfg.Agents, exe)
		}
		if len(cfg.Channels) != 1 || strings.Join(cfg.Channels[0].Agents, ",") != "demo" {
			t.Errorf("%s: channels = %+v; want one channel holding the demo agent", lang, cfg.Channels)
		}
	}
	if string(DefaultFile(exe)) != string(DefaultFileIn(i18n.English, exe)) {
		t.Error("DefaultFile is not the English default file")
	}
}

// The executable's path is written so that YAML reads it back whatever it holds.
func TestDefaultFileQuotesTheExecutable(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, folder := range []string{
		"plain",
		"with spaces",
		`with "double" and 'single' quotes`,
		"with # hash",
		"with: colon",
		`back\slash`,
		"[brackets], {braces}",
		"émoji 🤖",
		"- dash",
	} {
		dir := filepath.Join(t.TempDir(), folder)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(dir, "sidekicks")
		if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		cfg, diags := Parse(filepath.Join(t.TempDir(), "config.yaml"), DefaultFile(exe))
		if len(diags) != 0 {
			t.Errorf("%q: %q", folder, diags)
			continue
		}
		if cfg.Agents[0].Command != exe || cfg.Agents[0].CommandPath != exe {
			t.Errorf("%q: command read back as %q (found at %q)", folder, cfg.Agents[0].Command, cfg.Agents[0].CommandPath)
		}
	}
}

func TestDefaultFileWithAnExecutableThatIsNotUTF8(t *testing.T) {
	bin := pathWithPrograms(t, "sidekicks")
	cfg, diags := Parse(filepath.Join(t.TempDir(), "config.yaml"), DefaultFile("/opt/\xff/sidekicks"))
	if len(diags) != 0 || cfg.Agents[0].CommandPath != filepath.Join(bin, "sidekicks") {
		t.Errorf("got %q, %+v; want the demo agent found in PATH", diags, cfg)
	}
}

// Every key is explained, and the commented examples are valid once uncommented.
func TestDefaultFileDocumentsEveryKey(t *testing.T) {
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		text := string(DefaultFileIn(lang, "/usr/bin/sidekicks"))
		for _, key := range []string{"version:", "theme:", "language:", "maxRunningAgents:", "stopIdleAgentsAfter:", "channels:"} {
			if !regexp.MustCompile(`(?m)^ *#.*\n *` + key).MatchString(text) {
				t.Errorf("%s: %s has no comment just above it", lang, key)
			}
		}
		for _, key := range []string{"name", "title", "icon", "description", "command", "args", "env", "afterStop",
			"workspace", "protect", "runtime", "agents"} {
			if !regexp.MustCompile(`(?m)^#   ` + key + ` +\S`).MatchString(text) {
				t.Errorf("%s: the key %s is not explained", lang, key)
			}
		}
		for _, word := range []string{"lifecycle", "container", "sbx"} {
			if !strings.Contains(text, word) {
				t.Errorf("%s: %s is not explained", lang, word)
			}
		}
	}
}

func TestDefaultFileExamplesWorkOnceUncommented(t *testing.T) {
	bin := pathWithPrograms(t, "sidekicks", "mm", "docker", "sbx")
	example := regexp.MustCompile(`(?m)^  # ((?:- |  ).*)$`)
	for _, lang := range []i18n.Lang{i18n.English, i18n.French} {
		text := example.ReplaceAllString(string(DefaultFileIn(lang, filepath.Join(bin, "sidekicks"))), "  $1")
		cfg, diags := Parse(filepath.Join(t.TempDir(), "config.yaml"), []byte(text))
		if len(diags) != 0 {
			t.Fatalf("%s: uncommented examples: %q\n%s", lang, diags, text)
		}
		var types []string
		for _, a := range cfg.Agents {
			types = append(types, a.Name+":"+a.Runtime.Type)
		}
		if len(cfg.Agents) != 4 || cfg.Agents[2].Runtime.Type != "container" || cfg.Agents[3].Runtime.Type != "sbx" ||
			len(cfg.Agents[3].Runtime.Lifecycle.Create) == 0 {
			t.Errorf("%s: uncommented agents %v; want demo, an mm agent, a container agent, an sbx agent with a lifecycle", lang, types)
		}
	}
}
