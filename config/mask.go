package config

import "strings"

// Masked is what MaskSecrets shows in place of a value that looks like a secret.
const Masked = "••••"

// secretWords are the words that make a flag's or a variable's name look like it holds a
// secret, wherever they are in the name and in any case: --api-key, --token, OPENAI_API_KEY,
// DB_PASSWORD, CLIENT_SECRET.
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD"}

// MaskSecrets returns a copy of argv (a program and its arguments, or arguments alone)
// fit to be shown, in the agent log or on screen, with the values that look like secrets
// replaced by Masked:
//
//   - the value of a flag whose name looks secret: --api-key=X, and --api-key X (the next
//     argument, unless it begins with "-", which makes it another flag);
//   - the value of a variable whose name looks secret: NAME=X, as given to -e or --env
//     (-e NAME=X, --env NAME=X, --env=NAME=X) or to env(1).
//
// A name looks secret when it holds KEY, TOKEN, SECRET, PASSWORD or PASSWD in any case.
// An empty value is left as it is. Only what is shown changes: the agent is given argv.
func MaskSecrets(argv []string) []string {
	out := make([]string, len(argv))
	valueNext := false
	for i, a := range argv {
		out[i] = a
		if valueNext {
			valueNext = false
			if !strings.HasPrefix(a, "-") && a != "" {
				out[i] = Masked
				continue
			}
		}
		if len(a) > 1 && a[0] == '-' {
			flag := strings.TrimLeft(a, "-")
			name, value, hasValue := strings.Cut(flag, "=")
			switch {
			case !looksSecret(name):
				if hasValue {
					out[i] = a[:len(a)-len(value)] + maskAssignment(value)
				}
			case !hasValue:
				valueNext = true
			case value != "":
				out[i] = a[:len(a)-len(value)] + Masked
			}
			continue
		}
		out[i] = maskAssignment(a)
	}
	return out
}

// maskAssignment masks the value of NAME=value when NAME is a variable's name that looks
// secret; it returns anything else as it is.
func maskAssignment(a string) string {
	name, value, ok := strings.Cut(a, "=")
	if !ok || value == "" || !isVariableName(name) || !looksSecret(name) {
		return a
	}
	return name + "=" + Masked
}

// isVariableName reports whether s is an environment variable's name: letters, digits and
// underscores, not beginning with a digit.
func isVariableName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// looksSecret reports whether a flag's or a variable's name holds one of secretWords.
func looksSecret(name string) bool {
	upper := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(upper, w) {
			return true
		}
	}
	return false
}
