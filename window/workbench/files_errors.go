package workbench

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/runtime"
)

// errorText says, in the user's language, why an operation on p (a folder when dir) was
// refused or failed. A refusal for protection says why: the file is protected, it is one
// of Sidekicks' own files (and which), or the folder holds a protected file (named when
// the workspace said which).
func errorText(lang i18n.Lang, err error, p string, dir bool, ws runtime.Workspace) string {
	switch {
	case errors.Is(err, runtime.ErrProtected):
		if dir && !ws.Protected(p) {
			if inside := containedProtected(err); inside != "" {
				return catalogue.Text(lang, tProtectedFolderFile, p, inside)
			}
			return catalogue.Text(lang, tProtectedFolder, p)
		}
		if own := runtime.OwnFileOf(err); own != nil {
			return ownLockedText(lang, p, own.Kind)
		}
		return catalogue.Text(lang, tProtected, p)
	case errors.Is(err, runtime.ErrOutside):
		return catalogue.Text(lang, tOutside, p)
	case errors.Is(err, fs.ErrNotExist):
		return catalogue.Text(lang, tGone, p)
	case errors.Is(err, fs.ErrPermission):
		return catalogue.Text(lang, tPermission, p)
	case errors.Is(err, runtime.ErrNotRegular):
		return catalogue.Text(lang, tNotRegular, p)
	}
	if large := (*runtime.TooLargeError)(nil); errors.As(err, &large) {
		return catalogue.Text(lang, tTooLargeFile, p, humanSize(large.Limit))
	}
	if tools := (*runtime.ToolsMissingError)(nil); errors.As(err, &tools) {
		return catalogue.Text(lang, tFailed, p, tools.Text(lang)) // what the image lacks, in lang
	}
	return catalogue.Text(lang, tFailed, p, err.Error())
}

// containedProtected returns the protected file a workspace named when it refused to
// delete or move a folder ("… contains "skills/x.md": protected file"), "" when it did not.
func containedProtected(err error) string {
	msg := err.Error()
	i := strings.Index(msg, "contains ")
	if i < 0 {
		return ""
	}
	q, qerr := strconv.QuotedPrefix(msg[i+len("contains "):])
	if qerr != nil {
		return ""
	}
	s, _ := strconv.Unquote(q)
	return s
}
