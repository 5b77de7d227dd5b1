package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// An agent's secrets (an API key it reads from its environment) are set from the
// application (Agent ▸ Secrets…), never written in the configuration: they are kept in a
// file of the state folder that only the user may read, and added to the agent's
// environment each time it starts. Neither the log nor the trace ever holds a value.

// secretsFileName is the file of the agents' secrets in the state folder.
const secretsFileName = "agent-secrets.json"

// Bounds on the secrets file and its entries.
const (
	maxSecretsFile  = 1 << 20
	maxSecretValue  = 16 << 10
	maxAgentSecrets = 32
)

// secretNameRE is what a secret's name (an environment variable) may be.
var secretNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

// secrets are every agent's secrets: by agent, then by variable.
type secrets map[string]map[string]string

// secretsPath is the secrets file: StateDir()/agent-secrets.json.
func secretsPath() (string, error) {
	d, err := config.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, secretsFileName), nil
}

// readSecrets reads the secrets file; a missing file holds none. The error never quotes
// the file's content.
func readSecrets(path string) (secrets, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return secrets{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the agents' secrets: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSecretsFile+1))
	if err != nil {
		return nil, fmt.Errorf("reading the agents' secrets: %w", err)
	}
	if len(data) > maxSecretsFile {
		return nil, fmt.Errorf("reading the agents' secrets: %s is over %d bytes", path, maxSecretsFile)
	}
	s := secrets{}
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("reading the agents' secrets: %s is not a JSON object of agents and their variables", path)
	}
	return s, nil
}

// secretProblem checks a secret's name and value: "" when they are good, else the
// message's key.
func secretProblem(name, value string) imsg {
	switch {
	case !secretNameRE.MatchString(name):
		return imsgBadName
	case reservedVariable(name):
		return imsgReservedName
	case len(value) > maxSecretValue || strings.ContainsAny(value, "\x00\r\n"):
		return imsgBadValue
	}
	return imsgNone
}

// reservedVariable says whether a variable is one the agent's process needs from its
// environment as it is (where programs are found, the home folder) or one that changes what
// the process loads (LD_*, DYLD_*): a secret of that name would break or subvert the agent.
func reservedVariable(name string) bool {
	up := strings.ToUpper(name)
	return up == "PATH" || up == "HOME" || strings.HasPrefix(up, "LD_") || strings.HasPrefix(up, "DYLD_")
}

// setSecret sets (or, with an empty value, removes) one secret of an agent in the file
// at path, written whole to a new file of mode 0600 (its folder 0700) that replaces the
// old one.
func setSecret(path, agent, name, value string) error {
	if p := secretProblem(name, value); p != imsgNone {
		return errors.New(signInCatalogue.Text(i18n.English, p))
	}
	all, err := readSecrets(path)
	if err != nil {
		return err
	}
	if all[agent] == nil {
		all[agent] = map[string]string{}
	}
	if value == "" {
		delete(all[agent], name)
	} else {
		if _, ok := all[agent][name]; !ok && len(all[agent]) >= maxAgentSecrets {
			return fmt.Errorf("agent %q has %d secrets already", agent, maxAgentSecrets)
		}
		all[agent][name] = value
	}
	if len(all[agent]) == 0 {
		delete(all, agent)
	}
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("saving the agents' secrets: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".agent-secrets-*")
	if err != nil {
		return fmt.Errorf("saving the agents' secrets: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err == nil {
		_, err = tmp.Write(data)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			return fmt.Errorf("saving the agents' secrets: %w", err)
		}
		return nil
	}
	tmp.Close()
	return fmt.Errorf("saving the agents' secrets: cannot make %s private", tmp.Name())
}

// withSecrets returns the agents with their secrets added to their environment (over a
// variable of the same name in the configuration); the configuration's agents are not
// changed. An agent of a project agents file gets none: a repository's file could name an
// agent after one of yours to be given its keys.
func withSecrets(agents []config.Agent, s secrets) []config.Agent {
	out := slices.Clone(agents)
	for i, a := range out {
		if len(s[a.Name]) == 0 || a.Project {
			continue
		}
		env := maps.Clone(a.Env)
		if env == nil {
			env = map[string]string{}
		}
		for k, v := range s[a.Name] {
			if !reservedVariable(k) { // a file edited by hand
				env[k] = v
			}
		}
		out[i].Env = env
	}
	return out
}

// secretNames are the names of an agent's secrets, sorted (never their values).
func secretNames(s secrets, agent string) []string {
	return slices.Sorted(maps.Keys(s[agent]))
}

// agentsWithSecrets is the configuration's agents with their secrets, as the stack starts
// them; a secrets file that cannot be read is logged (never its content) and adds none.
func (ap *application) agentsWithSecrets(agents []config.Agent) []config.Agent {
	out, err := WithAgentSecrets(agents)
	if err != nil {
		ap.log.Printf("%v", err)
	}
	return out
}

// WithAgentSecrets returns the agents with the secrets set in Agent ▸ Secrets… added to
// their environment (`sidekicks ask` starts its agent with them too). When the secrets
// file cannot be read, the agents are returned unchanged with the error, which never
// quotes the file.
func WithAgentSecrets(agents []config.Agent) ([]config.Agent, error) {
	path, err := secretsPath()
	var s secrets
	if err == nil {
		s, err = readSecrets(path)
	}
	if err != nil {
		return agents, err
	}
	return withSecrets(agents, s), nil
}
