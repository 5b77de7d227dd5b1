package config

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// expandPath resolves a path written in the configuration: "~" at its start is the
// user's home folder, and a relative path starts from the configuration's folder, never
// from the current folder.
func (l *loader) expandPath(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(l.dir, p)
}

// isPath tells a program given as a path from a bare name to look up in PATH.
func isPath(program string) bool {
	return strings.Contains(program, "/")
}

// findCommand returns where a program is: for a bare name, the file PATH leads to; for
// anything with a "/", the path resolved like any path of the file. It returns "" when
// there is no such file.
func (l *loader) findCommand(program string) string {
	if program == "" {
		return ""
	}
	if isPath(program) {
		p := l.expandPath(program)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
		return ""
	}
	p, err := exec.LookPath(program)
	if err != nil || errors.Is(err, exec.ErrDot) {
		// A program found through a relative PATH entry depends on the current folder,
		// which a configuration never does.
		return ""
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return p
}

// resolveProgram resolves the program of a command (afterStop, lifecycle): a path
// becomes absolute; a bare name found in PATH becomes the file found, and stays as it is
// otherwise (it is reported when the command runs, not when the file loads). The
// arguments are kept as they are.
func (l *loader) resolveProgram(command []string) []string {
	if len(command) == 0 {
		return command
	}
	out := append([]string(nil), command...)
	switch {
	case out[0] == "":
	case isPath(out[0]):
		out[0] = l.expandPath(out[0])
	default:
		if p := l.findCommand(out[0]); p != "" {
			out[0] = p
		}
	}
	return out
}
