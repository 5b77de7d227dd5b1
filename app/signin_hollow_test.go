package app

import (
	"os"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// A sign-in the agent calls a success, followed by a turn refused for lack of a login
// again, is said not to have signed the agent in, naming the variable the agent's key
// method names, and Agent ▸ Secrets… opens with it; a key method is marked as such and
// opens Agent ▸ Secrets… in place of asking the agent to authenticate. The key set, the
// next message is answered.
func TestAppHollowSignInOffersTheKey(t *testing.T) {
	h, _, trace := signInApp(t, "hollow-signin")
	h.sendGate("hello")
	h.waitText(testagents.HollowSignInMessage, "Sign in to gate", "Example API key", "key: Secrets…")
	h.typeText("Use the workspace")
	h.press(tcell.KeyEnter)
	h.waitText(`Signed in to gate with "Use the workspace login": send your message again`)
	h.sendGate("hello again")
	h.waitText(`Signing in to gate with "Use the workspace login" did not sign it in: it still asks for a login. Set `+testagents.SignInKeyEnv,
		"Secrets of gate", testagents.SignInKeyEnv)
	h.press(tcell.KeyEscape)
	h.waitGone("Secrets of gate")

	h.pick(h.ap.signIn, "Sign in to gate", "Example API key")
	h.waitText("Secrets of gate")
	h.press(tcell.KeyEnter) // the name offered is the method's variable
	h.waitText("Value of " + testagents.SignInKeyEnv)
	h.typeText(testagents.SignInKey)
	h.press(tcell.KeyEnter)
	h.waitText("Secret " + testagents.SignInKeyEnv + " of gate saved")
	h.sendGate("third")
	h.waitText("signed in by key")
	if n := countTraced(t, trace, `"method":"authenticate","params":{"methodId":"api-key"`); n != 0 {
		t.Errorf("the key method was sent to authenticate %d times", n)
	}
}

// countTraced counts the lines of the trace that hold s.
func countTraced(t *testing.T, trace, s string) int {
	t.Helper()
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), s)
}
