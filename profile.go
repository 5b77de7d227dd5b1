//go:build profile

// Built only with -tags profile (make profile): a developer's hooks to see where a
// running binary's memory and time go. SIGUSR1 writes a heap profile and the runtime's
// memory figures into $SIDEKICKS_PROFILE_DIR (allocations sampled every 4 KiB, unless
// SIDEKICKS_PROFILE_HEAP=0; built with -tags profile,memory.counters,
// those of SQLite's C allocator too: live allocations, bytes and regions mapped); with
// SIDEKICKS_PROFILE_CPU=1 a CPU profile and an execution trace run from the start until
// SIGUSR2. keys.txt gets a line for each
// frame drawn after a key (window.KeyTrace): when tcell made the key's event (µs since the
// epoch), then in µs the wait until the loop took it, until the frame began, and the frame;
// then, of the loop's turn before, the time its posted work took, its frame took, and from
// its start to the key's event. frames.txt gets a line for each frame: its start (µs since
// the epoch), then in µs its painting, its hand-over to tcell, tcell's writing, then the
// cells sent, the garbage collections that ended since the frame before, and the CPU time
// the frame's thread spent (µs; against the wall time, what waited for the CPU).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"git.rickub.com/bots-garden/sidekicks/window"
	"modernc.org/libc"
)

func init() {
	dir := os.Getenv("SIDEKICKS_PROFILE_DIR")
	if dir == "" {
		return
	}
	// Agents started from here (the demo agent is this binary) would otherwise truncate
	// and write the same files.
	profileCPU := os.Getenv("SIDEKICKS_PROFILE_CPU") == "1"
	fineHeap := os.Getenv("SIDEKICKS_PROFILE_HEAP") != "0"
	os.Unsetenv("SIDEKICKS_PROFILE_DIR")
	os.Unsetenv("SIDEKICKS_PROFILE_CPU")
	os.Unsetenv("SIDEKICKS_PROFILE_HEAP")
	if fineHeap {
		runtime.MemProfileRate = 4096 // fine enough to tell the holders of a few MB apart
	}
	var cpu, tr *os.File
	if profileCPU {
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
		window.KeyTrace = func(made, taken, drawing, shown time.Time, before window.LoopTurn) {
			mu.Lock()
			fmt.Fprintf(kf, "%d %d %d %d %d %d %d\n", made.UnixMicro(), taken.Sub(made).Microseconds(),
				drawing.Sub(taken).Microseconds(), shown.Sub(drawing).Microseconds(),
				before.Posts.Sub(before.Start).Microseconds(), before.Drawn.Sub(before.Posts).Microseconds(),
				made.Sub(before.Start).Microseconds())
			mu.Unlock()
		}
	}
	if ff, err := os.Create(filepath.Join(dir, "frames.txt")); err == nil {
		gc := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
		var last uint64
		var wall [4]time.Time
		var cpu [4]time.Duration
		var sent int
		window.FrameTrace = func(phase window.FramePhase, n int) {
			wall[phase], cpu[phase] = time.Now(), threadCPU()
			if phase == window.FrameFlushed {
				sent = n
			}
			if phase != window.FrameShown {
				return
			}
			metrics.Read(gc)
			cycles := gc[0].Value.Uint64()
			fmt.Fprintf(ff, "%d %d %d %d %d %d %d\n", wall[0].UnixMicro(), wall[1].Sub(wall[0]).Microseconds(),
				wall[2].Sub(wall[1]).Microseconds(), wall[3].Sub(wall[2]).Microseconds(), sent, cycles-last,
				(cpu[3] - cpu[0]).Microseconds())
			last = cycles
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
			cmem := libc.MemStat()
			b, _ := json.MarshalIndent(map[string]any{"time": time.Now(), "HeapAlloc": ms.HeapAlloc, "HeapInuse": ms.HeapInuse,
				"HeapIdle": ms.HeapIdle, "HeapReleased": ms.HeapReleased, "StackInuse": ms.StackInuse, "Sys": ms.Sys,
				"MSpanInuse": ms.MSpanInuse, "GCSys": ms.GCSys, "OtherSys": ms.OtherSys, "NumGC": ms.NumGC,
				"PauseTotalNs": ms.PauseTotalNs, "HeapObjects": ms.HeapObjects,
				// SQLite's C allocator: zero unless built with -tags profile,memory.counters.
				"LibcAllocs": cmem.Allocs, "LibcBytes": cmem.Bytes, "LibcMmaps": cmem.Mmaps}, "", " ")
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("mem%d.json", n)), b, 0o644)
		}
	}()
}

// threadCPU is the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
