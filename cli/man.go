package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"git.rickub.com/bots-garden/sidekicks/config"
)

// runMan prints the manual page, sidekicks(1), in roff: `sidekicks man > sidekicks.1`, or
// `make man`, which writes docs/man/sidekicks.1. It is made from the texts of the help and
// the options of each command, in the language of the environment.
func (p program) runMan(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("man", manSynopsis, stderr)
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	p.writeMan(stdout)
	return 0
}

// manFiles are where Sidekicks keeps its files, as the man page says it: the rules, not
// the paths of the machine it was made on.
var manFiles = []struct {
	label helpMsg
	where string
}{
	{helpFileConfig, "$XDG_CONFIG_HOME/sidekicks/config.yaml (~/.config/sidekicks/config.yaml; macOS: ~/Library/Application Support/sidekicks/config.yaml)"},
	{helpFilePreferences, "preferences.json, beside the default configuration"},
	{helpFileHistory, "$SIDEKICKS_DATA_DIR, else $XDG_DATA_HOME/sidekicks/history (~/.local/share/sidekicks/history)"},
	{helpFileLogs, "$SIDEKICKS_STATE_DIR/logs, else $XDG_STATE_HOME/sidekicks/logs (~/.local/state/sidekicks/logs; macOS: ~/Library/Logs/sidekicks/logs)"},
}

// writeMan writes the manual page.
func (p program) writeMan(w io.Writer) {
	lang := config.LanguageOf(nil)
	help := func(k helpMsg) string { return roff(helpCatalogue.Text(lang, k)) }
	man := func(k manMsg) string { return roff(manCatalogue.Text(lang, k)) }
	// The page's date is the commit's (vcs.time, RFC 3339), so that a page made twice from
	// one build is the same page.
	date, _, _ := strings.Cut(p.build.date, "T")
	fmt.Fprintf(w, ".TH SIDEKICKS 1 %s %s\n", roffQuoted(date), roffQuoted("sidekicks "+p.version))
	fmt.Fprintf(w, ".SH %s\nsidekicks \\- %s\n", man(manSecName), man(manWhat))
	fmt.Fprintf(w, ".SH %s\n%s\n.br\n%s\n", man(manSecSynopsis), roffSynopsis(appSynopsis), roffSynopsis("sidekicks COMMAND [options]"))
	fmt.Fprintf(w, ".SH %s\n%s\n.PP\n%s\n%s\n", man(manSecDescription), help(helpWithoutCommand), help(helpCommandOptions), help(helpVersionAliases))
	fmt.Fprintf(w, ".SH %s\n", man(manSecOptions))
	writeManFlags(w, appFlags)
	fmt.Fprintf(w, ".SH %s\n", man(manSecCommands))
	for _, c := range p.commands() {
		fmt.Fprintf(w, ".TP\n%s\n%s\n", roffSynopsis(c.synopsis), help(c.summary))
		if flags := c.flags(); len(flags) > 1 { // more than --help
			fmt.Fprintln(w, ".RS")
			writeManFlags(w, flags)
			fmt.Fprintln(w, ".RE")
		}
	}
	fmt.Fprintf(w, ".SH %s\n", man(manSecEnvironment))
	for _, e := range environment {
		fmt.Fprintf(w, ".TP\n.B %s\n%s\n", e.name, help(e.text))
	}
	fmt.Fprintf(w, ".SH %s\n", man(manSecFiles))
	for _, f := range manFiles {
		fmt.Fprintf(w, ".TP\n.I %s\n%s\n", help(f.label), roff(f.where))
	}
	fmt.Fprintf(w, ".SH %s\n", man(manSecExitStatus))
	for _, s := range []struct {
		code int
		text manMsg
	}{{0, manExitOK}, {1, manExitError}, {2, manExitUsage}} {
		fmt.Fprintf(w, ".TP\n.B %d\n%s\n", s.code, man(s.text))
	}
	fmt.Fprintf(w, ".PP\n%s\n", man(manExitMore))
	fmt.Fprintf(w, ".SH %s\n%s\n", man(manSecSeeAlso), man(manSeeAlsoText))
}

// writeManFlags writes each option as a tagged paragraph: --name VALUE, then its usage.
func writeManFlags(w io.Writer, flags []flagInfo) {
	for _, f := range flags {
		tag := `\fB\-\-` + roff(f.name) + `\fR`
		if f.value != "" {
			tag += ` \fI` + roff(f.value) + `\fR`
		}
		fmt.Fprintf(w, ".TP\n%s\n%s\n", tag, roff(f.usage))
	}
}

// roffSynopsis writes a usage line with the commands and options in bold.
func roffSynopsis(s string) string {
	words := strings.Fields(s)
	for i, word := range words {
		if strings.HasPrefix(word, "sidekicks") || (i == 1 && word[0] != '[' && word != "COMMAND") {
			words[i] = `\fB` + roff(word) + `\fR`
		} else {
			words[i] = roff(word)
		}
	}
	return strings.Join(words, " ")
}

// roff escapes text for a roff line: backslashes, hyphens (so that options copy as the
// minus sign they are), characters beyond ASCII (as \[uXXXX], which every roff reads
// whatever its input encoding), and a first character roff would read as a request.
func roff(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r == '…':
			b.WriteString("...") // in every roff, whatever its output device
		case r > unicode.MaxASCII:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		case r < ' ':
			b.WriteByte(' ') // a control character would end the line or be a roff escape
		default:
			b.WriteRune(r)
		}
	}
	s = b.String()
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffQuoted writes a macro argument between double quotes.
func roffQuoted(s string) string {
	return `"` + strings.ReplaceAll(roff(s), `"`, `""`) + `"`
}
