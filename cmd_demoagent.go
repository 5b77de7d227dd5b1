package main

import (
	"fmt"
	"io"
)

// runDemoAgent is being built.
func runDemoAgent(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sidekicks: this command is not available yet")
	return 1
}
