package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// How long Sidekicks waits for a container engine (docker or sbx). An engine that accepts
// connections and never answers (a dead ssh:// host, a hung daemon) would otherwise hold
// an agent "starting" for ever, and its slot with it.
const (
	// DefaultEngineTimeout bounds each query of a start (docker container inspect,
	// docker start, sbx ls) and the check of the engine before a terminal opens.
	DefaultEngineTimeout = 30 * time.Second
	// DefaultExecTimeout bounds each file operation in a container or sandbox (one docker
	// or sbx exec).
	DefaultExecTimeout = 60 * time.Second
	// DefaultLifecycleTimeout bounds a lifecycle command (create, stop, remove), which may
	// pull or build an image.
	DefaultLifecycleTimeout = 10 * time.Minute
)

// errEngineTimeout is the cause of a context that ended because an engine command ran out
// of time (context.Cause tells it from a cancel or the caller's own deadline).
var errEngineTimeout = errors.New("engine timeout")

// EngineTimeoutError is an engine command that did not end in time: it was stopped, with
// whatever it started. Text says it in the user's language.
type EngineTimeoutError struct {
	// Engine is "docker" or "sbx".
	Engine string
	// Address is where the engine is, from DOCKER_HOST or the Docker context ("" when not
	// known; always "" for sbx).
	Address string
	// Command is what was asked, short ("docker container inspect box"), or the lifecycle
	// command line.
	Command string
	// Lifecycle is "create", "stop" or "remove" for a lifecycle command, "" for the
	// engine's own commands.
	Lifecycle string
	// After is how long it was given.
	After time.Duration
}

func (e *EngineTimeoutError) Error() string { return e.Text(i18n.English) }

// Text says what did not answer, in lang: "the Docker engine at tcp://host:2375 did not
// answer within 30 s (docker container inspect box)".
func (e *EngineTimeoutError) Text(lang i18n.Lang) string {
	after := durationText(e.After, lang)
	cmd := safetext.Line(e.Command)
	switch {
	case e.Lifecycle != "":
		return timeoutTexts.Text(lang, mLifecycleTimeout, e.Lifecycle, after, cmd)
	case e.Engine == "sbx":
		return timeoutTexts.Text(lang, mSbxTimeout, after, cmd)
	case e.Address != "":
		return timeoutTexts.Text(lang, mDockerAtTimeout, safetext.Line(e.Address), after, cmd)
	}
	return timeoutTexts.Text(lang, mDockerTimeout, after, cmd)
}

type timeoutKey int

const (
	mDockerAtTimeout timeoutKey = iota
	mDockerTimeout
	mSbxTimeout
	mLifecycleTimeout
	mSeconds
	mMilliseconds
	mMinutes
	timeoutKeyCount
)

var timeoutTextsEN = [timeoutKeyCount]string{
	mDockerAtTimeout:  "the Docker engine at %s did not answer within %s (%s)",
	mDockerTimeout:    "the Docker engine did not answer within %s (%s)",
	mSbxTimeout:       "the sbx engine did not answer within %s (%s)",
	mLifecycleTimeout: "lifecycle.%s did not end within %s and was stopped (%s)",
	mSeconds:          "%d s",
	mMilliseconds:     "%d ms",
	mMinutes:          "%d min",
}

var timeoutTextsFR = [timeoutKeyCount]string{
	mDockerAtTimeout:  "le moteur Docker à %s n'a pas répondu en %s (%s)",
	mDockerTimeout:    "le moteur Docker n'a pas répondu en %s (%s)",
	mSbxTimeout:       "le moteur sbx n'a pas répondu en %s (%s)",
	mLifecycleTimeout: "lifecycle.%s n'a pas fini en %s et a été arrêté (%s)",
	mSeconds:          "%d s",
	mMilliseconds:     "%d ms",
	mMinutes:          "%d min",
}

var timeoutTexts = i18n.NewCatalogue[timeoutKey](timeoutTextsEN[:], timeoutTextsFR[:])

// durationText writes a timeout the way people say it: whole minutes, whole seconds, or
// milliseconds (the short timeouts of tests).
func durationText(d time.Duration, lang i18n.Lang) string {
	switch {
	case d >= time.Minute && d%time.Minute == 0:
		return timeoutTexts.Text(lang, mMinutes, int64(d/time.Minute))
	case d >= time.Second && d%time.Second == 0:
		return timeoutTexts.Text(lang, mSeconds, int64(d/time.Second))
	}
	return timeoutTexts.Text(lang, mMilliseconds, d.Milliseconds())
}

// withEngineTimeout bounds ctx by d (not when d <= 0); timedOut reports whether it was
// that bound, rather than a cancel or the caller's deadline, that ended it.
func withEngineTimeout(ctx context.Context, d time.Duration) (_ context.Context, cancel context.CancelFunc, timedOut func() bool) {
	if d <= 0 {
		ctx, cancel = context.WithCancel(ctx)
		return ctx, cancel, func() bool { return false }
	}
	ctx, cancel = context.WithTimeoutCause(ctx, d, errEngineTimeout)
	return ctx, cancel, func() bool { return errors.Is(context.Cause(ctx), errEngineTimeout) }
}

// engineTimeout is the error of an engine command that ran out of time.
func engineTimeout(engine string, env []string, command string, after time.Duration) error {
	e := &EngineTimeoutError{Engine: engine, Command: command, After: after}
	if engine == "docker" {
		e.Address = dockerAddress(env)
	}
	return e
}

// dockerAddress says which engine docker talks to with env added to Sidekicks' own
// environment, as docker chooses it: DOCKER_HOST, else the endpoint of DOCKER_CONTEXT, else
// of the current context of the Docker configuration, else the local socket. A context
// whose endpoint cannot be read is named ("context build-box").
func dockerAddress(env []string) string {
	all := append(os.Environ(), env...)
	if h := lookupEnv(all, "DOCKER_HOST"); h != "" {
		return redactURL(h)
	}
	dir := lookupEnv(all, "DOCKER_CONFIG")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".docker")
	}
	name := lookupEnv(all, "DOCKER_CONTEXT")
	if name == "" {
		var cfg struct{ CurrentContext string }
		if readSmallJSON(filepath.Join(dir, "config.json"), &cfg) == nil {
			name = cfg.CurrentContext
		}
	}
	if name == "" || name == "default" {
		return "unix:///var/run/docker.sock"
	}
	sum := sha256.Sum256([]byte(name))
	var meta struct {
		Endpoints map[string]struct{ Host string }
	}
	err := readSmallJSON(filepath.Join(dir, "contexts", "meta", hex.EncodeToString(sum[:]), "meta.json"), &meta)
	if h := meta.Endpoints["docker"].Host; err == nil && h != "" {
		return redactURL(h)
	}
	return "context " + name
}

// lookupEnv is the value of key in KEY=VALUE entries, the last one winning as it does for
// a command's environment.
func lookupEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}

// redactURL hides the password of an address that carries one.
func redactURL(s string) string {
	if u, err := url.Parse(s); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			return u.Redacted()
		}
	}
	return s
}

// readSmallJSON decodes a regular file of at most 1 MiB, opened without waiting (a named
// pipe in its place must not block the message that names the engine).
func readSmallJSON(name string, v any) error {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, 1<<20+1))
	if err != nil {
		return err
	}
	if len(data) > 1<<20 {
		return fmt.Errorf("%s: too large", name)
	}
	return json.Unmarshal(data, v)
}
