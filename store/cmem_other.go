//go:build !(linux && (amd64 || arm64 || loong64 || ppc64le || s390x || riscv64 || 386 || arm))

package store

// trimCMemory does nothing where libc's allocator is another one (cmem_musl.go).
func trimCMemory() {}
