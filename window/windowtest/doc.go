// Package windowtest runs a real window.App on a tcell simulation screen for the screen
// tests of the window packages: starting and stopping it, waiting for a frame or a text with
// a deadline (on the screen's own signals, never by sleeping), sending keys, pastes and
// mouse events, reading the screen as text and styles, and golden files.
//
// It is test support: only _test.go files import it. The window package's own (internal)
// tests cannot, since this package imports window.
package windowtest

import "time"

// Deadline bounds every wait of the harness.
const Deadline = 10 * time.Second
