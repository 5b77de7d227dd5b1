package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPaths(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	bin := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("LANG", "C")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+t.TempDir())
	writeExecutable(t, filepath.Join(bin, "mm"))
	writeExecutable(t, filepath.Join(dir, "agents", "run.sh"))
	writeExecutable(t, filepath.Join(home, "bin", "agent"))
	if err := os.MkdirAll(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The current folder must play no part: move elsewhere.
	t.Chdir(t.TempDir())
	cfg, d := parseIn(t, dir, `version: 1
agents:
  - name: bare
    command: mm
    args: [-config, ./agent.yaml, ~/x]
    workspace: agents/bare
  - name: relative
    command: ./agents/run.sh
    workspace: ../elsewhere
  - name: home
    command: ~/bin/agent
    workspace: ~/work
    afterStop: [./scripts/unload.sh, home]
  - name: absolute
    command: `+filepath.Join(dir, "agents", "run.sh")+`
    workspace: /srv/agent/../agent
  - name: folder
    command: ./adir
    workspace: "~"
  - name: sbx
    command: mm
    afterStop: [mm, unload]
    runtime:
      type: sbx
      sandbox: s
      lifecycle:
        folder: ~/sbx
        create: [~/bin/agent, create]
        stop: [not-installed, stop]
  - name: container
    command: mm
    workspace: ./ws
    runtime:
      type: container
      container: c
      lifecycle:
        folder: compose
`)
	if cfg == nil {
		t.Fatalf("%v", messages(d))
	}
	wantMessages(t, messages(d),
		`line 18 — agents[4].command: "./adir" was not found (`+dir+`/adir); check the path: a relative path starts from the configuration's folder`)
	get := func(name string) Agent {
		a := cfg.Agent(name)
		if a == nil {
			t.Fatalf("no agent %s", name)
		}
		return *a
	}
	for _, c := range []struct {
		name, workspace, commandPath string
	}{
		{"bare", filepath.Join(dir, "agents", "bare"), filepath.Join(bin, "mm")},
		{"relative", filepath.Join(filepath.Dir(dir), "elsewhere"), filepath.Join(dir, "agents", "run.sh")},
		{"home", filepath.Join(home, "work"), filepath.Join(home, "bin", "agent")},
		{"absolute", "/srv/agent", filepath.Join(dir, "agents", "run.sh")},
		{"folder", home, ""},
		{"sbx", dir, filepath.Join(bin, "mm")},
		{"container", filepath.Join(dir, "ws"), filepath.Join(bin, "mm")},
	} {
		a := get(c.name)
		if a.Workspace != c.workspace || a.CommandPath != c.commandPath {
			t.Errorf("%s: workspace %q command %q, want %q %q", c.name, a.Workspace, a.CommandPath, c.workspace, c.commandPath)
		}
	}
	if a := get("bare"); a.Command != "mm" || !reflect.DeepEqual(a.Args, []string{"-config", "./agent.yaml", "~/x"}) {
		t.Errorf("command and args must stay as written: %q %q", a.Command, a.Args)
	}
	if a := get("home"); !reflect.DeepEqual(a.AfterStop, []string{filepath.Join(dir, "scripts", "unload.sh"), "home"}) {
		t.Errorf("afterStop path: %q", a.AfterStop)
	}
	sbx := get("sbx")
	if !reflect.DeepEqual(sbx.AfterStop, []string{filepath.Join(bin, "mm"), "unload"}) {
		t.Errorf("afterStop bare name found in PATH: %q", sbx.AfterStop)
	}
	wantLifecycle := Lifecycle{
		Folder: filepath.Join(home, "sbx"),
		Create: []string{filepath.Join(home, "bin", "agent"), "create"},
		Stop:   []string{"not-installed", "stop"},
	}
	if !reflect.DeepEqual(sbx.Runtime.Lifecycle, wantLifecycle) {
		t.Errorf("lifecycle %+v, want %+v", sbx.Runtime.Lifecycle, wantLifecycle)
	}
	if sbx.Runtime.WorkspacePath != dir {
		t.Errorf("workspacePath defaults to the workspace: %q", sbx.Runtime.WorkspacePath)
	}
	if c := get("container"); c.Runtime.Lifecycle.Folder != filepath.Join(dir, "compose") || c.Runtime.WorkspacePath != filepath.Join(dir, "ws") {
		t.Errorf("container: %+v", c.Runtime)
	}
}

func TestCommandFoundThroughRelativePathEntryIsNotFound(t *testing.T) {
	cwd := t.TempDir()
	writeExecutable(t, filepath.Join(cwd, "rel", "mm"))
	t.Chdir(cwd)
	t.Setenv("PATH", "rel")
	t.Setenv("LANG", "C")
	cfg, d := parseIn(t, t.TempDir(), "version: 1\nagents:\n  - name: a\n    command: mm\n")
	if cfg == nil || cfg.Agents[0].CommandPath != "" || len(d) != 1 || !d[0].Warning {
		t.Errorf("a program found only through a relative PATH entry: %+v %v", cfg, messages(d))
	}
}

func TestRelativePathGivenToParse(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("PATH", t.TempDir())
	cfg, d := Parse("sub/config.yaml", []byte("version: 1\nagents:\n  - {name: a, command: /bin/sh}\n"))
	if cfg == nil {
		t.Fatalf("%v", messages(d))
	}
	// On macOS the temporary folder is behind a symbolic link; compare what Abs gives.
	want, _ := filepath.Abs(filepath.Join("sub", "config.yaml"))
	if cfg.Path != want || cfg.Agents[0].Workspace != filepath.Dir(want) || cfg.Agents[0].Source != want {
		t.Errorf("path %q workspace %q source %q, want %q", cfg.Path, cfg.Agents[0].Workspace, cfg.Agents[0].Source, want)
	}
}
