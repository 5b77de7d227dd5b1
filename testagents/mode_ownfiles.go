package testagents

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// OwnFilesMode is an agent that tries to write where its prompt says. The prompt holds
// commands, one per line or separated by ";":
//   - "link NAME TARGET" plants a symbolic link NAME (in its working folder) to TARGET,
//     itself, as an agent with a shell would;
//   - "write PATH" writes "written by the agent" to PATH through fs/write_text_file: PATH
//     as given when absolute, else its working folder, "/" and PATH, uncleaned ("./x" and
//     "a/../x" reach the client as they are).
//
// It replies with one line per command: "PATH: written", "PATH: refused: <the client's
// message>", "link NAME: planted" or "link NAME: failed: <why>".
const OwnFilesMode = "ownfiles"

// OwnFilesContent is what the ownfiles agent writes.
const OwnFilesContent = "written by the agent"

func init() { modes[OwnFilesMode] = serveOwnFiles }

func serveOwnFiles(in io.Reader, out, _ io.Writer) int {
	p := newPeer(OwnFilesMode, in, out)
	for {
		m, ok := p.next()
		if !ok {
			return 0
		}
		if p.handshake(m, nil) || m.Method != "session/prompt" {
			continue
		}
		s := m.Params.SessionID
		var replies []string
		for _, line := range strings.FieldsFunc(m.promptText(), func(r rune) bool { return r == '\n' || r == ';' }) {
			f := strings.Fields(line)
			switch {
			case len(f) == 3 && f[0] == "link":
				if err := os.Symlink(f[2], filepath.Join(p.cwd[s], f[1])); err != nil {
					replies = append(replies, "link "+f[1]+": failed: "+err.Error())
				} else {
					replies = append(replies, "link "+f[1]+": planted")
				}
			case len(f) == 2 && f[0] == "write":
				path := f[1]
				if !strings.HasPrefix(path, "/") {
					path = p.cwd[s] + "/" + path
				}
				answer, ok := p.call("fs/write_text_file", map[string]any{"sessionId": s, "path": path, "content": OwnFilesContent})
				switch {
				case !ok:
					replies = append(replies, f[1]+": refused: the client went away")
				case answer.Error != nil:
					replies = append(replies, f[1]+": refused: "+answer.Error.Message)
				default:
					replies = append(replies, f[1]+": written")
				}
			}
		}
		p.say(s, strings.Join(replies, "\n")+"\n")
		p.endTurn(m.ID)
	}
}

// OwnLayout is a test's Sidekicks whose own files sit in the agents' workspace, as they do
// in the default configuration's folder: the configuration, preferences.json, the project
// agents file of the folder Sidekicks runs in (the test runs there), the data folder (the
// history) and the state folder (the logs, the approvals). The workspace also holds
// AGENTS.md, skills/web/SKILL.md and listed.txt, which ModeEntry agents with OwnProtect
// list in protect.
type OwnLayout struct {
	// Dir is the workspace, where the test runs.
	Dir         string
	Config      string
	Preferences string
	Project     string
}

// OwnProtect is the protect line of an agent entry of an OwnLayout.
const OwnProtect = "    protect: [listed.txt]\n"

// NewOwnLayout isolates the environment (Env), lays out Sidekicks' own files in one folder
// (the configuration waits for WriteConfig) and moves the test to it.
func NewOwnLayout(t testing.TB) OwnLayout {
	t.Helper()
	base := Env(t)
	t.Setenv("HOME", filepath.Join(base, "home"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(base, "home", ".config"))
	prefs, err := config.PreferencesPath()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(prefs)
	l := OwnLayout{Dir: dir, Config: filepath.Join(dir, "config.yaml"), Preferences: prefs,
		Project: filepath.Join(dir, filepath.FromSlash(config.ProjectFile))}
	t.Setenv("SIDEKICKS_STATE_DIR", filepath.Join(dir, "state"))
	t.Setenv("SIDEKICKS_DATA_DIR", filepath.Join(dir, "data"))
	files := map[string]string{
		l.Preferences:                   "{}\n",
		l.Project:                       "# no agents\n",
		filepath.Join(dir, "AGENTS.md"): "# Agent\n",
		filepath.Join(dir, "skills/web/SKILL.md"):  "web\n",
		filepath.Join(dir, "listed.txt"):           "listed\n",
		filepath.Join(dir, "state/logs/agents/x"):  "log\n",
		filepath.Join(dir, "data/history/keep.db"): "db\n",
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return l
}

// WriteConfig writes the configuration of these agents, and returns its path.
func (l OwnLayout) WriteConfig(t testing.TB, entries ...string) string {
	t.Helper()
	l.WriteFile(t, l.Config, fmt.Sprintf("version: 1\nlimits:\n  maxRunningAgents: 2\nagents:\n%s", strings.Join(entries, "")))
	return l.Config
}

// OwnFilesEntry is an ownfiles agent of a test configuration, working in the
// configuration's folder (the default workspace) and protecting listed.txt.
func OwnFilesEntry(t testing.TB, name string) string {
	t.Helper()
	return fmt.Sprintf(`  - name: %s
    command: %q
    env:
      %s: %q
%s`, name, Binary(t), modeEnv, OwnFilesMode, OwnProtect)
}

// Read returns the content of a file of the layout (relative to Dir, or absolute), or
// "(error)" when it cannot be read.
func (l OwnLayout) Read(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(l.Dir, p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return string(b)
}

// WriteFile writes content to a file of the layout (relative to Dir, or absolute).
func (l OwnLayout) WriteFile(t testing.TB, p, content string) {
	t.Helper()
	if !filepath.IsAbs(p) {
		p = filepath.Join(l.Dir, p)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
