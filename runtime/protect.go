package runtime

import (
	"path"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// Files every agent's workspace protects, whatever its configuration says.
var alwaysProtected = []string{"AGENTS.md", "skills/**"}

// Compose file names docker compose looks for when no -f is given.
var composeDefaults = []string{"compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"}

// Protections returns every protection pattern of an agent, relative to its workspace: its
// protect list, AGENTS.md and skills/**, its own configuration file (the argument after
// --config, -config or "serve acp" in args), and the files its container or sandbox is
// built from (the Compose file, the lifecycle folder's Dockerfile for a container, the
// sbx environment file) — each only when it is inside the workspace.
func Protections(a config.Agent) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range a.Protect {
		add(normalizePattern(a, p))
	}
	for _, p := range alwaysProtected {
		add(p)
	}
	for _, f := range configFileArgs(a.Args) {
		add(insideWorkspace(a, a.Workspace, f))
	}
	folder := a.Runtime.Lifecycle.Folder
	if folder == "" {
		folder = a.Workspace
	}
	lifecycle := [][]string{a.Runtime.Lifecycle.Create, a.Runtime.Lifecycle.Stop, a.Runtime.Lifecycle.Remove}
	named := false
	for _, cmd := range lifecycle {
		if f, ok := composeFileArg(cmd); ok {
			named = true
			add(insideWorkspace(a, folder, f))
		}
	}
	switch a.Runtime.Type {
	case "container":
		if !named {
			for _, f := range composeDefaults {
				add(insideWorkspace(a, folder, f))
			}
		}
		add(insideWorkspace(a, folder, "Dockerfile"))
	case "sbx":
		envNamed := false
		for _, cmd := range lifecycle {
			if f, ok := sbxEnvFileArg(cmd); ok {
				envNamed = true
				add(insideWorkspace(a, folder, f))
			}
		}
		if !envNamed {
			add(insideWorkspace(a, folder, "sbxenv.yaml"))
		}
	}
	return out
}

// normalizePattern cleans a protect pattern: "./x" is "x", an absolute path inside the
// workspace becomes relative.
func normalizePattern(a config.Agent, p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if path.IsAbs(p) {
		return insideWorkspace(a, "/", p)
	}
	p = path.Clean(p)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	return p
}

// insideWorkspace resolves file against base and returns it relative to the workspace (the
// local folder, or workspacePath as the agent sees it), or "" when it is outside.
func insideWorkspace(a config.Agent, base, file string) string {
	file = filepath.ToSlash(file)
	if !path.IsAbs(file) {
		file = path.Join(filepath.ToSlash(base), file)
	}
	file = path.Clean(file)
	for _, root := range []string{a.Workspace, a.Runtime.WorkspacePath} {
		if root == "" {
			continue
		}
		root = path.Clean(filepath.ToSlash(root))
		if file != root && within(root, file) {
			return strings.TrimPrefix(file[len(root):], "/")
		}
	}
	return ""
}

// configFileArgs finds the agent's configuration file in its arguments: after --config or
// -config (also --config=FILE), or after "serve acp".
func configFileArgs(args []string) []string {
	var out []string
	for i, arg := range args {
		switch {
		case arg == "--config" || arg == "-config":
			if i+1 < len(args) {
				out = append(out, args[i+1])
			}
		case strings.HasPrefix(arg, "--config="):
			out = append(out, strings.TrimPrefix(arg, "--config="))
		case strings.HasPrefix(arg, "-config="):
			out = append(out, strings.TrimPrefix(arg, "-config="))
		case arg == "acp" && i > 0 && args[i-1] == "serve" && i+1 < len(args):
			out = append(out, args[i+1])
		}
	}
	return out
}

// Options of docker compose placed before its sub-command that take a value.
var composeValueFlags = map[string]bool{
	"-f": true, "--file": true, "-p": true, "--project-name": true, "--project-directory": true,
	"--env-file": true, "--profile": true, "--ansi": true, "--progress": true, "--parallel": true,
}

// composeFileArg returns the file a compose command names with -f or --file before its
// sub-command (after it, -f is another option, such as rm's --force).
func composeFileArg(cmd []string) (string, bool) {
	start := -1
	for i, arg := range cmd {
		if arg == "compose" || (i == 0 && path.Base(filepath.ToSlash(arg)) == "docker-compose") {
			start = i + 1
			break
		}
	}
	if start < 0 {
		return "", false
	}
	for i := start; i < len(cmd); i++ {
		arg := cmd[i]
		switch {
		case arg == "-f" || arg == "--file":
			if i+1 < len(cmd) {
				return cmd[i+1], true
			}
			return "", false
		case strings.HasPrefix(arg, "--file="):
			return strings.TrimPrefix(arg, "--file="), true
		case strings.HasPrefix(arg, "-f") && len(arg) > 2:
			return arg[2:], true
		case composeValueFlags[arg]:
			i++
		case strings.HasPrefix(arg, "-"):
		default:
			return "", false // the sub-command
		}
	}
	return "", false
}

// sbxEnvFileArg returns the environment file of "sbx env create FILE" or "sbx env rm FILE"
// (the first argument after the sub-command that is not an option).
func sbxEnvFileArg(cmd []string) (string, bool) {
	if len(cmd) < 3 || path.Base(filepath.ToSlash(cmd[0])) != "sbx" {
		return "", false
	}
	for i := 1; i+1 < len(cmd); i++ {
		if cmd[i] != "env" {
			continue
		}
		for _, arg := range cmd[i+2:] {
			if !strings.HasPrefix(arg, "-") {
				return arg, true
			}
		}
		return "", false
	}
	return "", false
}

// A protector matches paths against protection patterns.
type protector struct {
	patterns [][]string // each pattern split into its names
	fold     bool       // compare without case (case-insensitive file systems)
}

// newProtector compiles patterns; on macOS and Windows, whose usual file systems ignore
// case, "agents.md" is the same file as "AGENTS.md", so matching ignores case there.
func newProtector(patterns []string) *protector {
	p := &protector{fold: goruntime.GOOS == "darwin" || goruntime.GOOS == "windows"}
	for _, pat := range patterns {
		pat = path.Clean(strings.ReplaceAll(pat, "\\", "/"))
		pat = strings.TrimPrefix(pat, "/")
		if pat == "" || pat == "." {
			continue
		}
		p.patterns = append(p.patterns, strings.Split(pat, "/"))
	}
	return p
}

// match reports whether a clean relative slash path matches a pattern.
func (p *protector) match(rel string) bool {
	if rel == "" || rel == "." {
		return false
	}
	if p.fold {
		rel = strings.ToLower(rel)
	}
	names := strings.Split(rel, "/")
	for _, pat := range p.patterns {
		if matchNames(pat, names, p.fold) {
			return true
		}
	}
	return false
}

// matchNames matches names against pattern names where "**" stands for any number of
// names (zero included). Dynamic programming keeps it polynomial whatever the pattern.
func matchNames(pat, names []string, fold bool) bool {
	// ok[j] is true when pat[:i] matches names[:j], for the current i.
	ok := make([]bool, len(names)+1)
	ok[0] = true
	for _, pn := range pat {
		if fold {
			pn = strings.ToLower(pn)
		}
		next := make([]bool, len(names)+1)
		if pn == "**" {
			any := false
			for j := range ok {
				any = any || ok[j]
				next[j] = any
			}
		} else {
			for j := 1; j <= len(names); j++ {
				next[j] = ok[j-1] && matchName(pn, names[j-1])
			}
		}
		ok = next
	}
	return ok[len(names)]
}

// matchName matches one name against a pattern where * is any run of characters and ? is
// one character (the classic linear backtracking over the last star).
func matchName(pat, name string) bool {
	px, nx := 0, 0
	starP, starN := -1, 0
	for nx < len(name) {
		if px < len(pat) {
			switch pat[px] {
			case '*':
				starP, starN = px, nx
				px++
				continue
			case '?':
				_, w := utf8.DecodeRuneInString(name[nx:])
				px++
				nx += w
				continue
			default:
				if pat[px] == name[nx] {
					px++
					nx++
					continue
				}
			}
		}
		if starP >= 0 {
			_, w := utf8.DecodeRuneInString(name[starN:])
			starN += w
			px, nx = starP+1, starN
			continue
		}
		return false
	}
	for px < len(pat) && pat[px] == '*' {
		px++
	}
	return px == len(pat)
}
