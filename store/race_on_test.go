//go:build race

package store

// raceDetector: the race detector's shadow memory grows with the Go heap's, so the process's
// memory no longer tells SQLite's apart.
const raceDetector = true
