package testagents

import (
	"net"
	"sync"
	"testing"
)

// SilentEngine listens on 127.0.0.1 and accepts every connection without ever answering:
// what a dead ssh:// host or a hung Docker daemon looks like to the docker command. It
// returns the address as DOCKER_HOST writes it ("tcp://127.0.0.1:PORT") and a channel
// that gets each connection; the listener and the connections close at the test's end.
func SilentEngine(t testing.TB) (host string, accepted <-chan net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 64)
	var mu sync.Mutex
	var all []net.Conn
	// Only accepts: nothing it reads reaches the code under test.
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			all = append(all, c)
			mu.Unlock()
			select {
			case conns <- c:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range all {
			_ = c.Close()
		}
	})
	return "tcp://" + ln.Addr().String(), conns
}
