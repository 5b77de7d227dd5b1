//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

import "os"

// tryLock has no advisory lock to take on this system: the PID is still written, but a
// second Sidekicks on the same configuration is not refused.
func tryLock(f *os.File) (held bool, err error) {
	return false, nil
}

// unlock has nothing to drop on this system.
func unlock(f *os.File) error {
	return nil
}
