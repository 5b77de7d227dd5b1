package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// printInside splits the flood's keys, with the key log of a binary built with -tags
// profile (keys.txt: a line per key, from tcell's event to the frame written), into the
// time inside sidekicks and the time outside it: tmux, this program, the machine. It prints
// the first's median, p99 and max, and where the worst key's time went.
func printInside(keysFile string, sends []sent) error {
	inside, err := readKeyLog(keysFile)
	if err != nil {
		return err
	}
	var in []time.Duration
	worst, worstIn := sent{}, time.Duration(-1)
	for _, k := range sends {
		d, ok := insideOf(inside, k)
		if !ok {
			continue
		}
		in = append(in, d)
		if k.echo > worst.echo {
			worst, worstIn = k, d
		}
	}
	if len(in) == 0 {
		return fmt.Errorf("no key of the flood found in %s", keysFile)
	}
	fmt.Printf("                          inside sidekicks (its key log, %d keys): %s\n", len(in), summary(in))
	fmt.Printf("                          the worst key, %s: %s inside sidekicks, %s outside\n",
		ms(worst.echo), ms(worstIn), ms(worst.echo-worstIn))
	return nil
}

// keyLog is one line of keys.txt: when tcell made the key's event, and the time from
// there to the frame written.
type keyLog struct {
	made   time.Time
	inside time.Duration
}

// readKeyLog reads keys.txt, in the order of the keys' events.
func readKeyLog(path string) ([]keyLog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []keyLog
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 {
			continue
		}
		var n [4]int64
		ok := true
		for i := range n {
			if n[i], err = strconv.ParseInt(fields[i], 10, 64); err != nil {
				ok = false
			}
		}
		if ok {
			out = append(out, keyLog{time.UnixMicro(n[0]), time.Duration(n[1]+n[2]+n[3]) * time.Microsecond})
		}
	}
	slices.SortFunc(out, func(a, b keyLog) int { return a.made.Compare(b.made) })
	return out, sc.Err()
}

// insideOf is the time inside sidekicks of the key k: the first key event made after k
// was sent and before its echo.
func insideOf(log []keyLog, k sent) (time.Duration, bool) {
	i, _ := slices.BinarySearchFunc(log, k.at, func(l keyLog, t time.Time) int { return l.made.Compare(t) })
	if i < len(log) && log[i].made.Before(k.at.Add(k.echo)) {
		return log[i].inside, true
	}
	return 0, false
}
