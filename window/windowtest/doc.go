// Package windowtest runs a real window.App on a tcell simulation screen for the screen
// tests of the window packages: starting and stopping it, waiting for a frame or a text with
// a deadline (on the screen's own signals, never by sleeping), waiting until the App has
// handled what was sent (Sync) or has nothing left to do (Idle), sending keys, pastes and
// mouse events, reading the screen as text and styles, and golden files compared once the
// App is idle.
//
// Its Screen is the one test screen of the repository's harnesses: Start wraps one around
// the App's screen, and a test that builds its App elsewhere (the application's own) makes
// one with NewScreen and hands it over. It keeps a copy of each frame shown (ScreenConfig.
// NoCopy turns that off for benchmarks); in a copy, the cells a wide character covers after
// its first take its style, whatever an earlier frame left there.
//
// It is test support: only _test.go files import it. The window package's tests that use
// it are in package window_test, since this package imports window.
package windowtest

import "time"

// Deadline bounds every wait of the harness.
const Deadline = 10 * time.Second
