package testagents

import (
	"io"
	"os"
)

// The hollow-signin agent is what gemini-cli does without a key: it lists a method that
// answers authenticate with success without signing in ("Use the workspace login"), and a
// key method ("Example API key", whose description names SignInKeyEnv). session/new is
// refused with -32000 and HollowSignInMessage until it was started with SignInKeyEnv set to
// SignInKey; authenticate always answers success. On session/prompt it replies
// "signed in by key".
const HollowSignInMessage = "Example API key is missing or not configured."

func init() { modes["hollow-signin"] = serveHollowSignIn }

func serveHollowSignIn(in io.Reader, out, _ io.Writer) int {
	p := newPeer("hollow-signin", in, out)
	signedIn := os.Getenv(SignInKeyEnv) == SignInKey
	for {
		m, _, ok := nextChoice(p)
		if !ok {
			return 0
		}
		switch {
		case m.Method == "initialize":
			p.answer(m.ID, map[string]any{"protocolVersion": 1, "authMethods": []any{
				map[string]any{"id": "workspace", "name": "Use the workspace login"},
				map[string]any{"id": "api-key", "name": "Example API key", "description": "Requires setting the `" + SignInKeyEnv + "` environment variable"},
			}, "agentCapabilities": map[string]any{"loadSession": false}})
		case m.Method == "authenticate":
			p.answer(m.ID, map[string]any{})
		case m.Method == "session/new" && !signedIn:
			failWith(p, m.ID, -32000, HollowSignInMessage)
		case p.handshake(m, nil):
		case m.Method == "session/prompt":
			p.say(m.Params.SessionID, "signed in by key")
			p.endTurn(m.ID)
		}
	}
}
