package store

// trimAfter is the size of an entry from which a write or a read gives the C allocator's free
// regions back to the system (trimCMemory) once done: SQLite copies the text of an entry
// several times while writing it, and reads it whole from its overflow pages, in buffers of
// their own past 16 KiB that the allocator keeps once freed. Below it, the copies share the
// allocator's pages and nothing is kept for long. Trimming costs a few munmap calls, and the
// next long write maps its buffers again and faults them in: against writing 64 KiB or more,
// little (BenchmarkSaveLongReply).
const trimAfter = 64 << 10

// afterLong gives the C allocator's free regions back after a write or a read whose largest
// row took size bytes, when it is a long one.
func afterLong(size int64) {
	if size >= trimAfter {
		trimCMemory()
	}
}
