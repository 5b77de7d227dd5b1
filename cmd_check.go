package main

import (
	"fmt"
	"io"
)

// runCheck is being built.
func runCheck(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sidekicks: this command is not available yet")
	return 1
}

// runSchema is being built.
func runSchema(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "sidekicks: this command is not available yet")
	return 1
}
