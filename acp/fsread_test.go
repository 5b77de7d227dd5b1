package acp_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	goruntime "runtime"
	"syscall"
	"testing"
	"time"

	"git.rickub.com/bots-garden/sidekicks/acp"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// TestReadsOfHugeFilesPipesAndDevicesAreRefusedQuickly: an agent asks to read a named
// pipe that nobody writes to, a device, and a 1 GiB file (sparse, one line of zeros),
// whole and in parts. Each read is refused as a refusal (invalid params) within seconds,
// the client loading none of them: the turn allocates far less than the file. The last
// lines of a 77 MB file are served, without loading it either.
func TestReadsOfHugeFilesPipesAndDevicesAreRefusedQuickly(t *testing.T) {
	ws := workspaceDir(t)
	writeFiles(t, ws, map[string]string{"notes.txt": "one\ntwo\n"})
	if err := syscall.Mkfifo(filepath.Join(ws, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(ws, "huge.log"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	big.Close()
	log, err := os.Create(filepath.Join(ws, "lines.log"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("0123456789\n"), 100_000)
	for range 70 {
		if _, err := log.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := log.WriteString("last but one\nlast\n"); err != nil {
		t.Fatal(err)
	}
	log.Close()
	in := func(name string) string { return ws + "/" + name }
	cases := []fsCase{
		{op: fsOp{Op: "read", Path: in("pipe")}, error: "not a regular file", code: -32602},
		{op: fsOp{Op: "read", Path: in("huge.log")}, error: "read it in parts with line and limit", code: -32602},
		{op: fsOp{Op: "read", Path: in("huge.log"), Line: intp(1), Limit: intp(10)}, error: "read it in smaller parts", code: -32602},
		{op: fsOp{Op: "read", Path: in("lines.log"), Line: intp(7_000_001), Limit: intp(5)}, content: "last but one\nlast\n"},
		{op: fsOp{Op: "read", Path: in("notes.txt"), Line: intp(2)}, content: "two\n"},
	}
	// A device like /dev/null, when this test may make one (root).
	if err := syscall.Mknod(filepath.Join(ws, "null"), syscall.S_IFCHR|0o644, 1<<8|3); err == nil {
		cases = append(cases, fsCase{op: fsOp{Op: "read", Path: in("null")}, error: "not a regular file", code: -32602})
	} else {
		t.Logf("no device tested: %v", err)
	}
	ops := make([]fsOp, len(cases))
	for i, c := range cases {
		ops[i] = c.op
	}
	_, s, rec := session(t, "basic", acp.Options{Workspace: runtime.NewLocalWorkspace(ws, nil)})
	opsJSON, _ := json.Marshal(ops)

	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	start := time.Now()
	prompt(t, s, "fs "+string(opsJSON))
	took := time.Since(start)
	goruntime.ReadMemStats(&after)

	if took > 5*time.Second {
		t.Errorf("the reads took %v", took)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
		t.Errorf("the reads allocated %d MiB", alloc>>20)
	}
	checkFSResults(t, rec.textOf(acp.AgentMessageChunk), cases)
}
