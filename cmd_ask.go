package main

import (
	"fmt"
	"io"
)

// runAsk is being built.
func runAsk(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sidekicks: this command is not available yet")
	return 1
}
