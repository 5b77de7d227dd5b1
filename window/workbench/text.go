package workbench

import (
	"fmt"
	"os"
	"strings"
)

// humanSize says a size the way a file manager does: 512 B, 12.3 KB, 4.0 MB.
func humanSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1000/1000/1000)
}

// marks are the small signs the tree and the panel draw; asciiMarks replaces them on a
// terminal whose locale is not UTF-8.
type marks struct {
	protected, open, closed, modified string
}

var (
	unicodeMarks = marks{protected: "🔒", open: "▾", closed: "▸", modified: "●"}
	asciiMarks   = marks{protected: "[p]", open: "v", closed: ">", modified: "*"}
)

// localeMarks picks the marks from the locale the way tcell picks its character set: the
// first of LC_ALL, LC_CTYPE and LANG that is set; C and POSIX are ASCII, a locale with no
// character set (en_US) or none at all is UTF-8.
func localeMarks() marks {
	if localeIsUTF8(os.Getenv("LC_ALL"), os.Getenv("LC_CTYPE"), os.Getenv("LANG")) {
		return unicodeMarks
	}
	return asciiMarks
}

func localeIsUTF8(lcAll, lcCtype, lang string) bool {
	locale := lcAll
	if locale == "" {
		locale = lcCtype
	}
	if locale == "" {
		locale = lang
	}
	if locale == "C" || locale == "POSIX" {
		return false
	}
	locale, _, _ = strings.Cut(locale, "@")
	_, charset, ok := strings.Cut(locale, ".")
	if !ok {
		return true
	}
	charset = strings.ToLower(charset)
	return charset == "utf-8" || charset == "utf8"
}
