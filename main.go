// Command sidekicks is a keyboard-driven terminal application for working with AI agents
// that speak the Agent Client Protocol. It only wires: the sub-commands are in package cli,
// the application on screen in package app.
package main

import (
	"os"

	"git.rickub.com/bots-garden/sidekicks/cli"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, version))
}
