package cli

import (
	"bytes"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionFlagsPrintTheBuild(t *testing.T) {
	inTempDir(t)
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
		}
		want := []string{"sidekicks dev\n", "\ncommit: ", "\ndate:   ", "\ngo:     " + goruntime.Version() + "\n"}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: %q missing from %q", args, w, out)
			}
		}
	}
	if code, _, errOut := runCmd(t, "--version", "extra"); code != 2 || !strings.Contains(errOut, `"extra"`) {
		t.Errorf("--version extra: exit %d, stderr %q", code, errOut)
	}
}

func TestVersionFromBuildInformation(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-30T10:20:30Z"},
		{Key: "vcs.modified", Value: "true"},
	}
	for _, tt := range []struct {
		name    string
		ldflags string
		bi      *debug.BuildInfo
		want    string
	}{
		{"go install @version", "dev", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.4.0"}},
			"sidekicks v1.4.0\ncommit: unknown\ndate:   unknown\ngo:     go1.99.1\n"},
		{"ldflags win", "v2.0.0", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.4.0"}},
			"sidekicks v2.0.0\ncommit: unknown\ndate:   unknown\ngo:     go1.99.1\n"},
		{"work tree build", "dev", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			"sidekicks dev\ncommit: 0123456789abcdef0123456789abcdef01234567 (modified)\ndate:   2026-11-30T10:20:30Z\ngo:     go1.99.1\n"},
		{"clean work tree", "", &debug.BuildInfo{GoVersion: "go1.99.1", Settings: vcs[:3]},
			"sidekicks dev\ncommit: 0123456789abcdef0123456789abcdef01234567\ndate:   2026-11-30T10:20:30Z\ngo:     go1.99.1\n"},
		{"no build information", "", nil,
			"sidekicks dev\ncommit: unknown\ndate:   unknown\ngo:     " + goruntime.Version() + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			readBuildInfo(tt.ldflags, tt.bi).print(&out)
			if out.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", out.String(), tt.want)
			}
		})
	}
}

func TestHelpOnStandardOutput(t *testing.T) {
	inTempDir(t)
	data := t.TempDir()
	t.Setenv("SIDEKICKS_DATA_DIR", data)
	state := t.TempDir()
	t.Setenv("SIDEKICKS_STATE_DIR", state)
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		code, out, errOut := runCmd(t, args...)
		if code != 0 || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", args, code, errOut)
		}
		for _, w := range []string{
			"usage: sidekicks",
			"\n  check ", "\n  schema ", "\n  ask ", "\n  allow ", "\n  demo-agent ", "\n  version ", "\n  help ",
			"\n  SIDEKICKS_CONFIG ", "\n  SIDEKICKS_DATA_DIR ", "\n  SIDEKICKS_STATE_DIR ", "\n  SIDEKICKS_ACP_TRACE ",
			"\n  history              " + data + "/history\n",
			"\n  logs                 " + state + "/logs\n",
			"\n  configuration        " + os.Getenv("XDG_CONFIG_HOME") + "/sidekicks/config.yaml\n",
			"\n  preferences          " + os.Getenv("XDG_CONFIG_HOME") + "/sidekicks/preferences.json\n",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("%q: %q missing from\n%s", args, w, out)
			}
		}
	}
	if code, out, errOut := runCmd(t, "help", "extra"); code != 2 || out != "" || !strings.Contains(errOut, "usage:") {
		t.Errorf("help extra: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, out, errOut := runCmd(t, "--nope"); code != 2 || out != "" || !strings.Contains(errOut, "SIDEKICKS_CONFIG") {
		t.Errorf("--nope: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestHelpTextsComplete: every text of the help has both languages, with the same verbs.
func TestHelpTextsComplete(t *testing.T) {
	for _, p := range helpCatalogue.Problems(helpWithoutCommand) {
		t.Error(p)
	}
}

func TestHelpInFrench(t *testing.T) {
	inTempDir(t)
	t.Setenv("LANG", "fr_FR.UTF-8")
	code, out, errOut := runCmd(t, "--help")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, w := range []string{"\ncommandes :\n", "\n  help        afficher cette aide\n", "\nenvironnement :\n", "\n  historique           "} {
		if !strings.Contains(out, w) {
			t.Errorf("%q missing from\n%s", w, out)
		}
	}
}
