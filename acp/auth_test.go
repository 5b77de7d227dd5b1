package acp_test

import (
	"errors"
	"strings"
	"testing"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/testagents"
)

// TestSignInWithAuthenticate reads the agent's login methods (agent and terminal, with the
// terminal one's arguments and environment), is refused a session with the agent's own
// message, signs in with authenticate (a refused method says so), opens a session, and
// signs out with logout; every message sent is valid against the official schema.
func TestSignInWithAuthenticate(t *testing.T) {
	c, info, trace := startMode(t, "signin")
	if len(info.AuthMethods) != 3 {
		t.Fatalf("methods: %+v", info.AuthMethods)
	}
	browser, tui := info.AuthMethods[0], info.AuthMethods[2]
	if browser.ID != "browser" || browser.Type != acp.AuthAgent || browser.Description != "opens a page" ||
		tui.ID != "tui" || tui.Type != acp.AuthTerminal || strings.Join(tui.Args, " ") != "--login" || tui.Env["SIGNIN_TERMINAL"] != "1" {
		t.Errorf("methods: %+v", info.AuthMethods)
	}
	_, err := c.NewSession(testContext(t), "/work", newRecorder())
	var auth *acp.AuthRequiredError
	if !errors.As(err, &auth) || auth.Message != testagents.SignInMessage || len(auth.Methods) != 3 {
		t.Fatalf("session/new before signing in: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "Sign in with a browser, Broken method, Log in in a terminal") || !strings.Contains(msg, "Agent ▸ Sign in…") {
		t.Errorf("message: %s", msg)
	}
	var rpc *acp.RPCError
	if err := c.Authenticate(testContext(t), "broken"); !errors.As(err, &rpc) || rpc.Message != "this method does not work" {
		t.Errorf("broken method: %v", err)
	}
	if err := c.Authenticate(testContext(t), "browser"); err != nil {
		t.Fatal(err)
	}
	s, err := c.NewSession(testContext(t), "/work", newRecorder())
	if err != nil {
		t.Fatalf("session/new after signing in: %v", err)
	}
	s.Close()
	if !c.CanLogout() {
		t.Fatal("the agent announced logout")
	}
	if err := c.Logout(testContext(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewSession(testContext(t), "/work", newRecorder()); !errors.As(err, &auth) {
		t.Errorf("session/new after logout: %v", err)
	}
	checkTraceValid(t, trace)
}

// TestLogoutNotOffered: an agent that does not announce logout is not asked.
func TestLogoutNotOffered(t *testing.T) {
	c, _, trace := startMode(t, "modes")
	if c.CanLogout() {
		t.Error("CanLogout without the capability")
	}
	if err := c.Logout(testContext(t)); !errors.Is(err, acp.ErrNoLogout) {
		t.Errorf("Logout: %v", err)
	}
	for _, l := range checkTraceValid(t, trace) {
		if strings.Contains(l, `"logout"`) {
			t.Errorf("logout was sent: %s", l)
		}
	}
}
