package acp

import (
	"context"
	"errors"
	"time"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// This file is how long Initialize waits for an agent slow to start: a container being
// created, a model loading. The wait for the answer to initialize is InitTimeout of
// silence: while the agent shows life on its stderr (Options.StartActivity), it is given
// more time, up to MaxInitWait in all. It then fails with an *InitTimeoutError that says
// what the agent last wrote.

// DefaultMaxInitWait is the longest wait for initialize of an agent that keeps writing
// on its stderr.
const DefaultMaxInitWait = time.Minute

// initWait waits for the answer to the initialize request r. It returns the answer, or
// an *InitTimeoutError when the agent stayed silent InitTimeout (on its stdout and its
// stderr), or took MaxInitWait in all.
func (c *Conn) initWait(ctx context.Context, r *request) ([]byte, error) {
	start := time.Now()
	written := false
	limit := max(c.opts.MaxInitWait, c.opts.InitTimeout)
	for {
		deadline := start.Add(c.opts.InitTimeout)
		if c.opts.StartActivity != nil {
			if last, _ := c.opts.StartActivity(); !last.IsZero() && last.Add(c.opts.InitTimeout).After(deadline) {
				deadline = last.Add(c.opts.InitTimeout)
			}
		}
		if hard := start.Add(limit); deadline.After(hard) {
			deadline = hard
		}
		wctx, cancel := context.WithDeadline(ctx, deadline)
		raw, err := c.awaitKeep(wctx, r, &written)
		expired := errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		if err == nil || !expired {
			if err != nil && ctx.Err() != nil {
				c.abandon(r.id)
			}
			return raw, err
		}
		// The deadline passed: more time only if the agent wrote on stderr meanwhile.
		if now := time.Now(); !now.Before(start.Add(limit)) || !c.livedSince(now.Add(-c.opts.InitTimeout)) {
			c.abandon(r.id)
			// The time allowed, as configured, or as long as the agent's signs of life made it.
			e := &InitTimeoutError{Agent: c.agent, After: c.opts.InitTimeout}
			if c.opts.StartActivity != nil {
				var last time.Time
				last, e.LastWords = c.opts.StartActivity()
				e.LastWords = safetext.Snippet(e.LastWords, maxQuoted)
				if !last.IsZero() {
					e.After = max(now.Sub(start).Round(time.Second), c.opts.InitTimeout)
				}
			}
			return nil, e
		}
	}
}

// livedSince reports whether the agent wrote on its stderr after t.
func (c *Conn) livedSince(t time.Time) bool {
	if c.opts.StartActivity == nil {
		return false
	}
	last, _ := c.opts.StartActivity()
	return last.After(t)
}

// awaitKeep waits for the answer to r until ctx is done, without giving the request up:
// the wait can go on. *written is set once the request is written.
func (c *Conn) awaitKeep(ctx context.Context, r *request, written *bool) ([]byte, error) {
	if !*written {
		if err := c.waitWritten(ctx, r.w); err != nil {
			return nil, err
		}
		*written = true
	}
	select {
	case res := <-r.p.ch:
		return res.result, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// text says that the agent did not answer initialize in time, with what it
// last wrote on stderr when it wrote something.
func (e *InitTimeoutError) text(lang i18n.Lang) string {
	s := catalogue.Text(lang, mInitTimeout, e.Agent, e.After)
	if e.LastWords != "" {
		s += startText.Text(lang, sLastWords, e.LastWords)
	}
	return s
}

type startMsg int

const sLastWords startMsg = 0

var startText = i18n.NewCatalogue[startMsg](
	[]string{sLastWords: "; it last wrote on its stderr: %s"},
	[]string{sLastWords: " ; sa dernière ligne sur sa sortie d'erreur : %s"},
)
