package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
)

// argKind says what a command's arguments (after its options) are, for the completion.
type argKind int

const (
	argNone  argKind = iota // no argument
	argFiles                // file names
	argShell                // one shell name
	argAgent                // an agent of the configuration, then words no script can guess
)

// completedShells are the shells `sidekicks completion` writes a script for.
var completedShells = []string{"bash", "zsh", "fish"}

// A flagInfo is one option of a command, as its --help lists it.
type flagInfo struct {
	name  string // without dashes
	value string // the name of its value ("FILE", "duration"); "" for a switch
	usage string // what it does, on one line
}

// files reports whether the option's value is a file name.
func (f flagInfo) files() bool { return f.value == "FILE" }

// appFlags are the options of `sidekicks` without a command.
var appFlags = []flagInfo{
	{"config", "FILE", "the configuration FILE"},
	{"help", "", "print the help"},
	{"version", "", "print the version"},
}

// flags returns the options of c, read from the usage its --help prints, so that the
// completion and the man page list what the command really accepts. The help option,
// which every command has, is added last.
func (c command) flags() []flagInfo {
	var usage bytes.Buffer
	if c.run([]string{"-h"}, io.Discard, &usage) != 0 {
		return nil
	}
	return append(parseDefaults(usage.String()), flagInfo{"help", "", "print the command's usage"})
}

// parseDefaults reads the options out of what flag.PrintDefaults writes: "  -name VALUE"
// then, on the same line after a tab or on the next lines after "    \t", the usage.
func parseDefaults(text string) []flagInfo {
	var out []flagInfo
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "  -"):
			head, usage, _ := strings.Cut(line[3:], "\t")
			name, value, _ := strings.Cut(head, " ")
			out = append(out, flagInfo{name: name, value: value, usage: strings.TrimSpace(usage)})
		case strings.HasPrefix(line, "    \t") && len(out) > 0:
			f := &out[len(out)-1]
			f.usage = strings.TrimSpace(f.usage + " " + strings.TrimSpace(line))
		}
	}
	return out
}

// asksHelp reports whether args, parsed as the command parses them, ask for its usage: -h
// or --help among its options (not as an option's value, nor after its first argument).
// A command that takes no -h of its own (help) never does.
func (c command) asksHelp(args []string) bool {
	if !slices.ContainsFunc(args, func(a string) bool { return a == "-h" || a == "-help" || a == "--help" }) {
		return false
	}
	var usage bytes.Buffer
	if c.run([]string{"-h"}, io.Discard, &usage) != 0 {
		return false
	}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, f := range parseDefaults(usage.String()) {
		if f.value == "" {
			fs.Bool(f.name, false, "")
		} else {
			fs.String(f.name, "", "")
		}
	}
	return errors.Is(fs.Parse(args), flag.ErrHelp)
}
