package app

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/chat"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// signInApp starts the application on one test agent "gate" of mode, working in a folder
// of its own, with a trace; it returns the harness, the workspace and the trace's path.
func signInApp(t *testing.T, mode string) (*appHarness, string, string) {
	t.Helper()
	dir := appEnv(t)
	ws := t.TempDir()
	trace := filepath.Join(dir, "acp.trace")
	t.Setenv(acp.TraceEnv, trace)
	path := filepath.Join(dir, "s.yaml")
	writeFile(t, path, "version: 1\nagents:\n"+testagents.ModeEntry(t, "gate", mode, ws))
	h := startApp(t, path, dir)
	h.onUI(func() { h.ap.openAgent("gate") })
	h.waitTitles("gate")
	return h, ws, trace
}

// pick opens a dialog with open, waits for its title, and takes the entry that starts
// with choice.
func (h *appHarness) pick(open func(), title, choice string) {
	h.t.Helper()
	h.onUI(open)
	h.waitText(title)
	h.typeText(choice)
	h.press(tcell.KeyEnter)
}

// sendGate sends a message to gate's window.
func (h *appHarness) sendGate(text string) {
	h.t.Helper()
	if err := h.ap.agents.Service().Send(chat.AgentKey("gate"), text); err != nil {
		h.t.Fatal(err)
	}
}

// An agent that needs a sign-in shows its own message and its methods; a key set in
// Agent ▸ Secrets… is typed masked, kept in a file only the user can read, and passed in
// the agent's environment at its next start, where the session opens. No other file the
// application, the agent or the trace wrote holds the key.
func TestAppSecretSignsIn(t *testing.T) {
	h, ws, trace := signInApp(t, "signin")
	h.sendGate("hello")
	// The refusal offers the agent's logins at once, the agent's own message beside.
	h.waitText(testagents.SignInMessage, "Sign in with a browser, Broken method, Log in in a terminal", "Agent ▸ Sign in…", "Sign in to gate")
	h.typeText("Set a key")
	h.press(tcell.KeyEnter)
	h.waitText("Secrets of gate", "Environment variable (e.g. GEMINI_API_KEY):")
	h.typeText("1BAD")
	h.press(tcell.KeyEnter)
	h.waitText("A variable's name is letters, digits and _")
	for range 4 {
		h.press(tcell.KeyBackspace2)
	}
	h.typeText(testagents.SignInKeyEnv)
	h.press(tcell.KeyEnter)
	h.waitText("Value of " + testagents.SignInKeyEnv + " (hidden; empty removes it):")
	h.typeText(testagents.SignInKey)
	screen := h.waitText(strings.Repeat("•", len(testagents.SignInKey)))
	if strings.Contains(screen, testagents.SignInKey) || strings.Contains(screen, testagents.SignInKey[3:]) {
		t.Fatalf("the key shows on screen:\n%s", screen)
	}
	h.press(tcell.KeyEnter)
	h.waitText("Secret " + testagents.SignInKeyEnv + " of gate saved; it is passed at the agent's next start")

	state, err := config.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(state, secretsFileName)
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the secrets file: %v %v", fi, err)
	}
	h.sendGate("again")
	h.waitText("signed in by key")
	h.quit()

	// The key is in the secrets file, and in no other file of the home folder (the
	// configuration, the history, the logs), the workspace, or the trace.
	if data, _ := os.ReadFile(trace); len(data) == 0 || strings.Contains(string(data), testagents.SignInKey) {
		t.Errorf("the trace is empty or holds the key (%d bytes)", len(data))
	}
	home, _ := os.UserHomeDir()
	var read int
	for _, root := range []string{home, ws, filepath.Dir(trace)} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || p == file {
				return nil
			}
			data, _ := os.ReadFile(p)
			read++
			if strings.Contains(string(data), testagents.SignInKey) {
				t.Errorf("%s holds the key", p)
			}
			return nil
		})
	}
	if read < 4 {
		t.Errorf("only %d files were looked at", read)
	}
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), testagents.SignInKey) {
		t.Errorf("the secrets file does not hold the key: %s", data)
	}
}

// Agent ▸ Sign in… lists the agent's methods: one the agent performs (authenticate) signs
// in and the next message opens a session; a refused one says why; signing out is offered
// when the agent announces logout.
func TestAppSignInWithTheAgent(t *testing.T) {
	h, _, _ := signInApp(t, "signin")
	h.sendGate("hello")
	h.waitText(testagents.SignInMessage, "Sign in to gate", "Sign in with a browser — opens a page", "Broken method", "Log in in a terminal", "in a terminal", "Set a key it reads (Secrets…)", "Sign out")
	h.typeText("Broken")
	h.press(tcell.KeyEnter)
	h.waitText(`Signing in to gate failed: the agent refused authenticate: this method does not work`)

	h.pick(h.ap.signIn, "Sign in to gate", "Sign in with")
	h.waitText(`Signed in to gate with "Sign in with a browser": send your message again`)
	h.sendGate("again")
	h.waitText("signed in by browser")

	h.pick(h.ap.signIn, "Sign in to gate", "Sign out")
	h.waitText("Signed out of gate")
}

// A terminal login runs the agent's program with the method's arguments and environment
// in its workspace, the screen suspended; its zero exit signs in.
func TestAppSignInInTheTerminal(t *testing.T) {
	h, ws, _ := signInApp(t, "signin")
	// The terminal, as the login program reads it: the code typed.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(testagents.SignInCode + "\n")
	w.Close()
	stdin := os.Stdin
	os.Stdin = r
	t.Cleanup(func() { os.Stdin = stdin; r.Close() })
	h.sendGate("hello")
	h.waitText(testagents.SignInMessage, "Sign in to gate") // offered at once
	h.typeText("Log in in a")
	h.press(tcell.KeyEnter)
	h.waitText(`Signed in to gate with "Log in in a terminal": send your message again`)
	if _, err := os.Stat(testagents.SignInMarkerIn(ws)); err != nil {
		t.Fatalf("the terminal login did not run in the workspace: %v", err)
	}
	h.sendGate("again")
	h.waitText("signed in by terminal")
}

// The secrets go to the configuration's agents only: an agent of a project agents file of
// the same name gets none.
func TestSecretsSkipProjectAgents(t *testing.T) {
	s := secrets{"gate": {"KEY": "v"}}
	got := withSecrets([]config.Agent{{Name: "gate", Env: map[string]string{"A": "1"}}, {Name: "gate", Project: true}, {Name: "other"}}, s)
	if got[0].Env["KEY"] != "v" || got[0].Env["A"] != "1" || got[1].Env["KEY"] != "" || got[2].Env != nil {
		t.Errorf("agents: %+v", got)
	}
}

// The texts of signing in, the secrets and the session options have both languages, with
// the same verbs.
func TestSignInTextsComplete(t *testing.T) {
	for _, p := range signInCatalogue.Problems(imsgItemSignIn) {
		t.Error(p)
	}
}
