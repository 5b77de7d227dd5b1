package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// meter types keys and times their echo.
type meter struct {
	s     *server
	typed map[*pane]int // letters typed into the pane's input since it was last emptied
	// rounds counts the times the pane's input was emptied: each round starts one letter
	// further, so that every key changes the cell it lands in even when the program draws
	// the emptying and the next key in one frame (a loaded machine): a program that sends
	// only changed cells would otherwise print nothing for it.
	rounds map[*pane]int
	// spawn sends each key with a tmux send-keys process of its own, as a script calling
	// tmux would: the process's start is then part of every echo.
	spawn bool
	// log, when profiling, gets a line for each key: when it was sent (µs since the
	// epoch), its echo (µs) and the pane's name, to match with the binary's keys.txt.
	log *os.File
	// sends, when set, gets each key typed into the pane traced, with its echo.
	sends  *[]sent
	traced *pane
}

// sent is a key typed: when, and the time until its echo.
type sent struct {
	at   time.Time
	echo time.Duration
}

// echo types one letter into p and returns the time until p printed it.
func (m *meter) echo(p *pane) (time.Duration, error) {
	if m.typed == nil {
		m.typed = map[*pane]int{}
	}
	n := m.typed[p]
	if n == len(letters) {
		// Empty the input, so that each letter appears once in it.
		if err := m.s.send(p, false, "C-u"); err != nil {
			return 0, err
		}
		time.Sleep(50 * time.Millisecond)
		n = 0
		if m.rounds == nil {
			m.rounds = map[*pane]int{}
		}
		m.rounds[p]++
	}
	m.typed[p] = n + 1
	key := string(letters[(n+m.rounds[p])%len(letters)])
	from := p.mark()
	start := time.Now()
	if m.spawn {
		if _, err := m.s.run("send-keys", "-t", p.target, "-l", key); err != nil {
			return 0, err
		}
	} else if err := m.s.send(p, true, key); err != nil {
		return 0, err
	}
	at, err := p.waitBytes(from, []byte(key), keyDeadline)
	if err != nil {
		return 0, err
	}
	if m.log != nil {
		fmt.Fprintf(m.log, "%d %d %s\n", start.UnixMicro(), at.Sub(start).Microseconds(), p.target)
	}
	if m.sends != nil && p == m.traced {
		*m.sends = append(*m.sends, sent{start, at.Sub(start)})
	}
	return at.Sub(start), nil
}

// pairs types n keys into a and n into b, in turn, idle between them: a drift of the
// machine's speed touches both alike.
func (m *meter) pairs(a, b *pane, n int) (ta, tb []time.Duration, err error) {
	for i := 0; i < n; i++ {
		if ta, tb, err = m.pair(a, b, ta, tb); err != nil {
			return ta, tb, err
		}
	}
	return ta, tb, nil
}

// pair types one key into b, then one into a, appends their times to tb and ta, and
// leaves the machine idle a moment.
func (m *meter) pair(a, b *pane, ta, tb []time.Duration) ([]time.Duration, []time.Duration, error) {
	d, err := m.echo(b)
	if err != nil {
		return ta, tb, err
	}
	tb = append(tb, d)
	if d, err = m.echo(a); err != nil {
		return ta, tb, err
	}
	ta = append(ta, d)
	time.Sleep(5 * time.Millisecond) // nothing in progress between keys
	return ta, tb, nil
}

// keys types n keys into p, one after the other's echo.
func (m *meter) keys(p *pane, n int) ([]time.Duration, error) {
	var out []time.Duration
	for i := 0; i < n; i++ {
		d, err := m.echo(p)
		if err != nil {
			return out, err
		}
		out = append(out, d)
		time.Sleep(5 * time.Millisecond)
	}
	return out, nil
}

// keysUntil types keys into p until done holds (checked every ten keys), within deadline,
// each followed by one into the baseline pane base; it returns the times of both.
func (m *meter) keysUntil(p, base *pane, done func() bool, deadline time.Duration) (out, baseOut []time.Duration, err error) {
	limit := time.Now().Add(deadline)
	for i := 0; ; i++ {
		if i%10 == 0 {
			if done() {
				return out, baseOut, nil
			}
			p.forget()
			base.forget()
		}
		if time.Now().After(limit) {
			return out, baseOut, fmt.Errorf("not done after %v; the screen:\n%s", deadline, m.s.screen(p))
		}
		if out, baseOut, err = m.pair(p, base, out, baseOut); err != nil {
			return out, baseOut, err
		}
	}
}

// openAgent opens the i-th agent of the Agent menu and waits for its window's title.
func (m *meter) openAgent(p *pane, i int, title string) error {
	keys := []string{"M-a"}
	for ; i > 0; i-- {
		keys = append(keys, "Down")
	}
	if err := m.s.send(p, false, "M-a"); err != nil {
		return err
	}
	if err := m.s.waitScreen(p, "Agent status", 10*time.Second); err != nil {
		return err
	}
	if err := m.s.send(p, false, append(keys[1:], "Enter")...); err != nil {
		return err
	}
	if err := m.s.waitScreen(p, title+" ", 20*time.Second); err != nil {
		return err
	}
	// The agent has started once its hint to type /help is shown, or once it is idle.
	time.Sleep(time.Second)
	m.typed[p] = len(letters) // start from an empty input
	return nil
}

// sendText sends keys, empties the input, types text, then sends more keys.
func (m *meter) sendText(p *pane, before []string, text string, after []string) error {
	if err := m.s.send(p, false, append(before, "C-u")...); err != nil {
		return err
	}
	if err := m.s.send(p, true, text); err != nil {
		return err
	}
	return m.s.send(p, false, after...)
}

// paste empties the input, pastes text (a bracketed paste) and sends it with Enter.
func (m *meter) paste(p *pane, text string) error {
	file := filepath.Join(m.s.dir, "paste")
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		return err
	}
	if err := m.s.send(p, false, "C-u"); err != nil {
		return err
	}
	if _, err := m.s.run("load-buffer", "-b", "p", file); err != nil {
		return err
	}
	if _, err := m.s.run("paste-buffer", "-p", "-d", "-b", "p", "-t", p.target); err != nil {
		return err
	}
	m.typed[p] = 0
	return m.s.send(p, false, "Enter")
}

// waitTurnOver waits until the focused window offers no turn to cancel.
func (m *meter) waitTurnOver(p *pane) error {
	limit := time.Now().Add(5 * time.Minute)
	for strings.Contains(m.s.screen(p), "Esc Cancel turn") {
		if time.Now().After(limit) {
			return fmt.Errorf("the turn is not over after 5 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

func median(ds []time.Duration) time.Duration { return quantile(ds, 0.5) }

// quantile is the q-quantile of ds, the nearest rank.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[max(min(i, len(s)-1), 0)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// summary is the median, p99 and max of ds.
func summary(ds []time.Duration) string {
	if len(ds) == 0 {
		return "no keys"
	}
	return fmt.Sprintf("median %s, p99 %s, max %s", ms(median(ds)), ms(quantile(ds, 0.99)), ms(slices.Max(ds)))
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }
