package cli

import (
	"fmt"
	"io"
	goruntime "runtime"
	"runtime/debug"
)

// buildInfo is what `sidekicks version` prints: where the binary comes from.
type buildInfo struct {
	version  string // the -ldflags version, else the module's (go install …@vX), else "dev"
	commit   string // vcs.revision, "" when unknown
	date     string // vcs.time, "" when unknown
	modified bool   // vcs.modified: built from a work tree with uncommitted changes
	goVer    string // the Go toolchain that built it
}

// readBuildInfo returns the build's information: ldflags is the version given with
// -ldflags "-X main.version=…" ("dev" or "" when none was), bi the binary's build
// information (nil when it has none).
func readBuildInfo(ldflags string, bi *debug.BuildInfo) buildInfo {
	b := buildInfo{version: ldflags, goVer: goruntime.Version()}
	if bi == nil {
		if b.version == "" {
			b.version = "dev"
		}
		return b
	}
	if bi.GoVersion != "" {
		b.goVer = bi.GoVersion
	}
	if b.version == "" || b.version == "dev" {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			b.version = v
		} else {
			b.version = "dev"
		}
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.commit = s.Value
		case "vcs.time":
			b.date = s.Value
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	return b
}

// currentBuild returns the running binary's build information.
func currentBuild(ldflags string) buildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return readBuildInfo(ldflags, bi)
}

// print writes the build information, one item a line; what is unknown says so.
func (b buildInfo) print(w io.Writer) {
	commit, date := b.commit, b.date
	if commit == "" {
		commit = "unknown"
	} else if b.modified {
		commit += " (modified)"
	}
	if date == "" {
		date = "unknown"
	}
	fmt.Fprintf(w, "sidekicks %s\n", b.version)
	fmt.Fprintf(w, "commit: %s\n", commit)
	fmt.Fprintf(w, "date:   %s\n", date)
	fmt.Fprintf(w, "go:     %s\n", b.goVer)
}
