package runtime

import (
	"errors"
	"fmt"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// OwnKind says which of Sidekicks' own files a path is (OwnNone: none of them).
type OwnKind int

// Sidekicks' own files.
const (
	OwnNone OwnKind = iota
	// OwnConfig is the configuration file in use.
	OwnConfig
	// OwnPreferences is preferences.json.
	OwnPreferences
	// OwnProjectAgents is .sidekicks/acp.toml of the folder Sidekicks runs in.
	OwnProjectAgents
	// OwnHistory is the history database, with its -wal, -shm, -journal and .lock files.
	OwnHistory
	// OwnLogs is the logs folder and everything in it.
	OwnLogs
	// OwnApprovals is the trust store, the approvals of project agents files.
	OwnApprovals
	// OwnTrace is the ACP trace file (SIDEKICKS_ACP_TRACE, ask's --trace).
	OwnTrace
	ownKindCount // not a kind: the number of keys
)

var ownReasonsEN = [ownKindCount]string{
	OwnNone:          "",
	OwnConfig:        "the configuration file in use",
	OwnPreferences:   "the preferences",
	OwnProjectAgents: "the project agents file of the folder Sidekicks runs in",
	OwnHistory:       "the history database",
	OwnLogs:          "the logs folder",
	OwnApprovals:     "the approvals of project agents files",
	OwnTrace:         "the ACP trace file",
}

var ownReasonsFR = [ownKindCount]string{
	OwnNone:          "",
	OwnConfig:        "le fichier de configuration en cours",
	OwnPreferences:   "les préférences",
	OwnProjectAgents: "le fichier des agents du projet du dossier où tourne Sidekicks",
	OwnHistory:       "la base de l'historique",
	OwnLogs:          "le dossier des journaux",
	OwnApprovals:     "les autorisations des fichiers d'agents de projet",
	OwnTrace:         "le fichier de trace ACP",
}

// ownReasons holds, for each kind, what the file is, in every language.
var ownReasons = i18n.NewCatalogue[OwnKind](ownReasonsEN[:], ownReasonsFR[:])

// Reason says which of Sidekicks' own files this is, in lang ("the configuration file in
// use"), to follow "one of Sidekicks' own files: …".
func (k OwnKind) Reason(lang i18n.Lang) string { return ownReasons.Text(lang, k) }

// OwnFile is one of Sidekicks' own files, an absolute path of this computer.
type OwnFile struct {
	Path string
	Kind OwnKind
	// Folder makes everything below Path Sidekicks' own too (the logs folder).
	Folder bool
}

// OwnFiles are Sidekicks' own files: a workspace never changes them, wherever they sit and
// whatever path leads to them (symbolic links resolved, "./" and ".." cleaned). An agent
// that could rewrite the configuration would choose the commands Sidekicks runs next.
type OwnFiles []OwnFile

// ownPaths are own files with their links resolved (resolve), for many lookups (a
// listing, a walk).
type ownPaths []OwnFile

// resolve returns each own file under its path as given and under its real path.
func (o OwnFiles) resolve() ownPaths {
	var out ownPaths
	for _, f := range o {
		if f.Path == "" || !filepath.IsAbs(f.Path) {
			continue
		}
		out = append(out, OwnFile{Path: filepath.Clean(f.Path), Kind: f.Kind, Folder: f.Folder})
		if real := realLocal(f.Path); real != filepath.Clean(f.Path) {
			out = append(out, OwnFile{Path: real, Kind: f.Kind, Folder: f.Folder})
		}
	}
	return out
}

// lookup returns which of Sidekicks' own files the absolute local path p is. p is real:
// the caller resolved its symbolic links (a link itself is not what it points to); each own
// file is known by its path as given and by its real path. Case is ignored on macOS and
// Windows, whose usual file systems ignore it.
func (o ownPaths) lookup(p string) OwnKind {
	if len(o) == 0 || !filepath.IsAbs(p) {
		return OwnNone
	}
	p = filepath.Clean(p)
	for _, f := range o {
		if sameOrBelow(f.Path, p, f.Folder) {
			return f.Kind
		}
	}
	return OwnNone
}

// sameOrBelow reports whether p is own, or below it when folder is set.
func sameOrBelow(own, p string, folder bool) bool {
	if goruntime.GOOS == "darwin" || goruntime.GOOS == "windows" {
		own, p = strings.ToLower(own), strings.ToLower(p)
	}
	if folder {
		return within(filepath.ToSlash(own), filepath.ToSlash(p))
	}
	return own == p
}

// realLocal returns the absolute path p with every symbolic link followed, the last name
// too; names that do not exist (yet) are taken as they are, after the links that lead to
// them (a dangling link is followed to where it points).
func realLocal(p string) string {
	root := filepath.VolumeName(p) + string(filepath.Separator)
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil {
		return filepath.Clean(p)
	}
	r, err := resolveIn(root, rel, true)
	if err != nil {
		return filepath.Clean(p)
	}
	return filepath.Join(root, filepath.FromSlash(r))
}

// OwnFileError is a change refused because the path is one of Sidekicks' own files. It
// matches ErrProtected (errors.Is).
type OwnFileError struct {
	// Path is the path as asked, relative to the workspace.
	Path string
	Kind OwnKind
}

func (e *OwnFileError) Error() string {
	return fmt.Sprintf("%q is one of Sidekicks' own files (%s)", e.Path, e.Kind.Reason(i18n.English))
}

// Is makes errors.Is(err, ErrProtected) true.
func (e *OwnFileError) Is(target error) bool { return target == ErrProtected }

// OutsideWorkspace and ProtectedFile make it an acp.Refusal.
func (e *OwnFileError) OutsideWorkspace() bool { return false }
func (e *OwnFileError) ProtectedFile() bool    { return true }

// SidekicksFile says, in English, which of Sidekicks' own files it is: how the ACP client
// tells the agent why, without importing this package.
func (e *OwnFileError) SidekicksFile() string { return e.Kind.Reason(i18n.English) }

// OwnFileOf returns the *OwnFileError err wraps, nil when none.
func OwnFileOf(err error) *OwnFileError {
	var e *OwnFileError
	if errors.As(err, &e) {
		return e
	}
	return nil
}
