package config

import (
	"io/fs"
	"os"
	"slices"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// This file keeps secrets at rest: the modes of the files Sidekicks writes in the user's
// folder, and the warning `sidekicks check` gives about a file whose agents' env values
// other users can read. The configuration's agents often carry API keys in their env,
// and the preferences name the files the user works on.

const (
	// privateFile is the mode of the files Sidekicks creates for the user: the default
	// configuration and the preferences.
	privateFile fs.FileMode = 0o600
	// privateFolder is the mode of the folders it creates for them.
	privateFolder fs.FileMode = 0o700
)

// ReadableSecrets warns about each file the agents were read from (their Source: the
// configuration, a project agents file) when one of its agents has secrets (env values, or
// arguments MaskSecrets would mask in its command, afterStop or lifecycle commands) and the
// file can be read by its group or by others. Each warning names the file and the
// command that makes it the user's alone. A file that cannot be examined is left out:
// loading it already said why.
func ReadableSecrets(agents []Agent, lang i18n.Lang) Diagnostics {
	var out Diagnostics
	seen := map[string]bool{}
	for _, a := range agents {
		if a.Source == "" || seen[a.Source] || !hasSecrets(a) {
			continue
		}
		seen[a.Source] = true
		fi, err := os.Stat(a.Source)
		if err != nil || fi.Mode().Perm()&0o044 == 0 {
			continue
		}
		text := catalogue.Text(lang, mSecretsReadable, fi.Mode().Perm(), safetext.Escaped(ShellWord(a.Source)))
		out = append(out, newDiagnostic(a.Source, lang, 0, 0, "", text, true))
	}
	return out
}

// hasSecrets reports whether the agent sets an environment variable to a value that is not
// empty, or has an argument that looks like a secret in one of its commands.
func hasSecrets(a Agent) bool {
	for _, v := range a.Env {
		if v != "" {
			return true
		}
	}
	l := a.Runtime.Lifecycle
	for _, argv := range [][]string{a.Args, a.AfterStop, l.Create, l.Stop, l.Remove} {
		if !slices.Equal(MaskSecrets(argv), argv) {
			return true
		}
	}
	return false
}

// CommandLine writes argv the way a POSIX shell would read it back, with the values that
// look like secrets masked (MaskSecrets): how every log line and view shows a command.
func CommandLine(argv []string) string {
	words := MaskSecrets(argv)
	for i, w := range words {
		words[i] = ShellWord(w)
	}
	return strings.Join(words, " ")
}

// ShellWord quotes w for a POSIX shell when it holds anything but plain characters, so
// that the command shown can be copied.
func ShellWord(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%^", r) || r > 127)
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
