//go:build !linux

package runtime

import "os/exec"

// startCmd starts cmd. Outside Linux there is no Pdeathsig: an agent whose Sidekicks was
// killed outright keeps running until its stdin's end makes it leave.
func startCmd(cmd *exec.Cmd) error { return cmd.Start() }
