package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestManPage: `sidekicks man` holds every command and every environment variable the
// help lists, each command's options, and roff renders it without a warning.
func TestManPage(t *testing.T) {
	groff, groffErr := exec.LookPath("groff")
	man, manErr := exec.LookPath("man")
	systemPath := "PATH=" + os.Getenv("PATH") // for groff's and man's own programs
	inTempDir(t)
	code, page, errOut := runCmd(t, "man")
	if code != 0 || errOut != "" {
		t.Fatalf("man: exit %d, stderr %q", code, errOut)
	}
	_, help, _ := runCmd(t, "help")
	commands, env := helpSections(help)
	if len(commands) < 9 || len(env) != 4 {
		t.Fatalf("read %q and %q from the help:\n%s", commands, env, help)
	}
	for _, c := range commands {
		if !strings.Contains(page, `\fBsidekicks\fR \fB`+roff(c)+`\fR`) {
			t.Errorf("command %s missing from the man page", c)
		}
	}
	for _, e := range env {
		if !strings.Contains(page, "\n.B "+e+"\n") {
			t.Errorf("variable %s missing from the man page", e)
		}
	}
	for _, option := range []string{"json", "trace", "delay", "yes"} {
		if !strings.Contains(page, `\fB\-\-`+option+`\fR`) {
			t.Errorf("option %s missing from the man page", option)
		}
	}
	if !strings.HasPrefix(page, ".TH SIDEKICKS 1 ") {
		t.Errorf("the page does not begin with its title: %.40q", page)
	}
	path := filepath.Join(t.TempDir(), "sidekicks.1")
	writeFile(t, path, page)
	if groffErr != nil {
		t.Log("groff is not installed: the page is not rendered")
	} else {
		cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", path)
		cmd.Env = append(cmd.Environ(), systemPath)
		var warnings strings.Builder
		cmd.Stderr = &warnings
		out, err := cmd.Output()
		if err != nil || warnings.Len() > 0 || !strings.Contains(string(out), "a file where every ACP message is written") {
			t.Errorf("groff: %v, warnings %q\n%s", err, warnings.String(), out)
		}
	}
	if manErr != nil {
		t.Log("man is not installed: the page is not shown")
	} else {
		cmd := exec.Command(man, "-l", path)
		cmd.Env = append(cmd.Environ(), "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100", systemPath)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "sidekicks check [--json] [--config FILE] [FILE...]") {
			t.Errorf("man -l: %v\n%s", err, out)
		}
	}
}

// helpSections reads the names listed under "commands:" and "environment:" in the help.
func helpSections(help string) (commands, env []string) {
	var into *[]string
	for _, line := range strings.Split(help, "\n") {
		switch {
		case line == "commands:":
			into = &commands
		case line == "environment:":
			into = &env
		case strings.HasPrefix(line, "  ") && into != nil:
			*into = append(*into, strings.Fields(line)[0])
		default:
			into = nil
		}
	}
	return commands, env
}

// TestManPageInFrench: the page follows the language of the environment, as the help does.
func TestManPageInFrench(t *testing.T) {
	inTempDir(t)
	t.Setenv("LANG", "fr_FR.UTF-8")
	_, page, _ := runCmd(t, "man")
	for _, w := range []string{".SH NOM\n", ".SH ENVIRONNEMENT\n", roff("afficher la page de manuel (roff), faite de cette aide")} {
		if !strings.Contains(page, w) {
			t.Errorf("%q missing from the French page", w)
		}
	}
}

func TestManTextsComplete(t *testing.T) {
	for _, p := range manCatalogue.Problems(manSecName) {
		t.Error(p)
	}
}

// TestManPageTitleLine: the title line names the build's version and its commit's date.
func TestManPageTitleLine(t *testing.T) {
	inTempDir(t)
	var page strings.Builder
	program{version: "v1.4.0", build: buildInfo{version: "v1.4.0", date: "2026-11-30T10:20:30Z"}}.writeMan(&page)
	if first, _, _ := strings.Cut(page.String(), "\n"); first != `.TH SIDEKICKS 1 "2026\-11\-30" "sidekicks v1.4.0"` {
		t.Errorf("title line %q", first)
	}
}
