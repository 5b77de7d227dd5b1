//go:build linux && (amd64 || arm64 || loong64 || ppc64le || s390x || riscv64 || 386 || arm)

package store

import (
	"sync"
	_ "unsafe" // go:linkname

	"modernc.org/memory"
)

// SQLite's C memory is modernc.org/libc's allocator (on these systems, the build
// constraint of the libc file that declares it). It keeps the regions it frees for reuse:
// up to 4 MiB per size class stays resident, with no function of libc's to give them back.
// A write of a long entry frees several copies of its text in one class (the bound value,
// the old row's text, the record), so every long reply saved left MiBs behind for as long
// as the program ran. trimCMemory gives what the allocator keeps and no longer uses back to
// the system, under the lock every malloc and free of libc takes.
//
// These names are libc's own variables (libc_musl.go, libc v1.80.1): a libc that renamed
// them fails to link. One that changed their types would not: when go.mod takes another
// libc, check that it still declares `allocator memory.Allocator` and `allocatorMu
// sync.Mutex`, then the versions in TestLibcAllocatorChecked. TestLongEntryMemoryGivenBack
// checks that the memory goes back.
//
//go:linkname libcAllocator modernc.org/libc.allocator
var libcAllocator memory.Allocator

//go:linkname libcAllocatorMu modernc.org/libc.allocatorMu
var libcAllocatorMu sync.Mutex

// trimCMemory gives the C allocator's free regions back to the system.
func trimCMemory() {
	libcAllocatorMu.Lock()
	defer libcAllocatorMu.Unlock()
	_ = libcAllocator.Trim() // an munmap that fails leaves the region mapped: nothing lost
}
