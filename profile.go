//go:build profile

// Built only with -tags profile (make profile): a developer's hooks to see where a
// running binary's memory and time go. SIGUSR1 writes a heap profile and the runtime's
// memory figures into $SIDEKICKS_PROFILE_DIR; with SIDEKICKS_PROFILE_CPU=1 a CPU profile
// and an execution trace run from the start until SIGUSR2. keys.txt gets a line for each
// frame drawn after a key (window.KeyTrace): when tcell made the key's event (µs since the
// epoch), then in µs the wait until the loop took it, until the frame began, and the frame.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"syscall"
	"time"

	"git.rickub.com/bots-garden/sidekicks/window"
)

func init() {
	dir := os.Getenv("SIDEKICKS_PROFILE_DIR")
	if dir == "" {
		return
	}
	runtime.MemProfileRate = 4096 // fine enough to tell the holders of a few MB apart
	var cpu, tr *os.File
	if os.Getenv("SIDEKICKS_PROFILE_CPU") == "1" {
		cpu, _ = os.Create(filepath.Join(dir, "cpu.pprof"))
		if cpu != nil {
			_ = pprof.StartCPUProfile(cpu)
		}
		tr, _ = os.Create(filepath.Join(dir, "trace.out"))
		if tr != nil {
			_ = trace.Start(tr)
		}
	}
	if kf, err := os.Create(filepath.Join(dir, "keys.txt")); err == nil {
		var mu sync.Mutex
		window.KeyTrace = func(made, taken, drawing, shown time.Time) {
			mu.Lock()
			fmt.Fprintf(kf, "%d %d %d %d\n", made.UnixMicro(), taken.Sub(made).Microseconds(),
				drawing.Sub(taken).Microseconds(), shown.Sub(drawing).Microseconds())
			mu.Unlock()
		}
	}
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		n := 0
		for s := range sig {
			if s == syscall.SIGUSR2 {
				if cpu != nil {
					pprof.StopCPUProfile()
					cpu.Close()
				}
				if tr != nil {
					trace.Stop()
					tr.Close()
				}
				continue
			}
			n++
			runtime.GC()
			if f, err := os.Create(filepath.Join(dir, fmt.Sprintf("heap%d.pprof", n))); err == nil {
				_ = pprof.WriteHeapProfile(f)
				f.Close()
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b, _ := json.MarshalIndent(map[string]any{"time": time.Now(), "HeapAlloc": ms.HeapAlloc, "HeapInuse": ms.HeapInuse,
				"HeapIdle": ms.HeapIdle, "HeapReleased": ms.HeapReleased, "StackInuse": ms.StackInuse, "Sys": ms.Sys,
				"MSpanInuse": ms.MSpanInuse, "GCSys": ms.GCSys, "OtherSys": ms.OtherSys, "NumGC": ms.NumGC,
				"PauseTotalNs": ms.PauseTotalNs, "HeapObjects": ms.HeapObjects}, "", " ")
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("mem%d.json", n)), b, 0o644)
		}
	}()
}
