package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// runCompletion prints the completion script of one shell: `sidekicks completion bash`.
// The script is made from the commands and their options as this build has them, with
// the commands' summaries in the language of the environment.
func (p program) runCompletion(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("completion", completionSynopsis, stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.Arg(0) == "agents" {
		return listAgents(fs.Args()[1:], stdout)
	}
	if fs.NArg() != 1 || !slices.Contains(completedShells, fs.Arg(0)) {
		if fs.NArg() == 0 {
			fmt.Fprintln(stderr, "sidekicks completion: which shell? bash, zsh or fish")
		} else {
			fmt.Fprintf(stderr, "sidekicks completion: unexpected argument %q (bash, zsh or fish)\n", strings.Join(fs.Args(), " "))
		}
		fs.Usage()
		return 2
	}
	script := map[string]func(io.Writer, []completed){
		"bash": writeBashCompletion, "zsh": writeZshCompletion, "fish": writeFishCompletion,
	}[fs.Arg(0)]
	script(stdout, p.completed())
	return 0
}

// listAgents prints the names of the agents `ask` can run, one a line, for the scripts:
// `sidekicks completion agents [--config FILE]`. The configuration is found as for `allow`,
// without creating the default file; the current folder's project agents join it once
// allowed. It prints nothing, and still exits with 0, when there is no configuration.
func listAgents(args []string, stdout io.Writer) int {
	fs := flag.NewFlagSet("completion agents", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfgPath := fs.String("config", "", "")
	if fs.Parse(args) != nil || fs.NArg() > 0 {
		return 2
	}
	path := *cfgPath
	if path != "" {
		if abs, _, err := config.Locate(path); err == nil { // a named file: ~ expanded, never created
			path = abs
		}
	}
	cfg := allowConfig(path)
	var names []string
	for _, a := range cfg.Agents {
		names = append(names, a.Name)
	}
	if wd, err := os.Getwd(); err == nil {
		if project := config.ReadProject(wd, cfg.UI.Language); project.Trusted {
			for _, a := range project.Agents {
				if cfg.Agent(a.Name) == nil {
					names = append(names, a.Name)
				}
			}
		}
	}
	for _, n := range names {
		fmt.Fprintln(stdout, safetext.Line(n))
	}
	return 0
}

// A completed command is what a completion script knows of one command.
type completed struct {
	name    string
	summary string
	args    argKind
	flags   []flagInfo
}

// completed returns the commands with their options, for the completion scripts.
func (p program) completed() []completed {
	lang := config.LanguageOf(nil)
	var out []completed
	for _, c := range p.commands() {
		out = append(out, completed{c.name, helpCatalogue.Text(lang, c.summary), c.args, c.flags()})
	}
	return out
}

// fileFlags returns the options of flags whose value is a file, each as --NAME and -NAME
// (the flag package takes both).
func fileFlags(flags []flagInfo) []string {
	var out []string
	for _, f := range flags {
		if f.files() {
			out = append(out, "--"+f.name, "-"+f.name)
		}
	}
	return out
}

// valueFlags returns the options of flags that take a value which is not a file.
func valueFlags(flags []flagInfo) []string {
	var out []string
	for _, f := range flags {
		if f.value != "" && !f.files() {
			out = append(out, "--"+f.name, "-"+f.name)
		}
	}
	return out
}

// dashed returns the options of flags as --NAME.
func dashed(flags []flagInfo) string {
	var out []string
	for _, f := range flags {
		out = append(out, "--"+f.name)
	}
	return strings.Join(out, " ")
}

// writeBashCompletion writes the bash script: `source <(sidekicks completion bash)`.
func writeBashCompletion(w io.Writer, commands []completed) {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	fmt.Fprintf(w, `# bash completion for sidekicks; load it with: source <(sidekicks completion bash)
_sidekicks() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --config|-config) ((i++)) ;;
            -*) ;;
            *) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    COMPREPLY=()
    case "$cmd $prev" in
%s    esac
    case $cmd in
        "")
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W %q -- "$cur")
            else
                mapfile -t COMPREPLY < <(compgen -W %q -- "$cur")
            fi ;;
%s    esac
}
complete -F _sidekicks sidekicks
`, bashValueCases(commands), "--config --help --version", strings.Join(names, " "), bashCommandCases(commands))
}

// bashFiles completes file names, marked so that bash adds a slash to folders.
const bashFiles = `compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur")`

// bashValueCases completes the value of an option: file names after an option that takes
// a file, nothing after one that takes something else.
func bashValueCases(commands []completed) string {
	var files, others []string
	for _, f := range fileFlags(appFlags) {
		files = append(files, `" `+f+`"`)
	}
	for _, c := range commands {
		for _, f := range fileFlags(c.flags) {
			files = append(files, `"`+c.name+" "+f+`"`)
		}
		for _, f := range valueFlags(c.flags) {
			others = append(others, `"`+c.name+" "+f+`"`)
		}
	}
	s := "        " + strings.Join(files, "|") + ") " + bashFiles + "; return ;;\n"
	if len(others) > 0 {
		s += "        " + strings.Join(others, "|") + ") return ;;\n"
	}
	return s
}

// bashCommandCases completes what follows a command: its options, and its arguments.
func bashCommandCases(commands []completed) string {
	var b strings.Builder
	for _, c := range commands {
		if len(c.flags) == 0 && c.args == argNone {
			continue // nothing follows it
		}
		fmt.Fprintf(&b, "        %s)\n            if [[ $cur == -* ]]; then\n", c.name)
		fmt.Fprintf(&b, "                mapfile -t COMPREPLY < <(compgen -W %q -- \"$cur\")\n", dashed(c.flags))
		switch c.args {
		case argFiles:
			b.WriteString("            else\n                " + bashFiles + "\n")
		case argShell:
			fmt.Fprintf(&b, "            else\n                mapfile -t COMPREPLY < <(compgen -W %q -- \"$cur\")\n", strings.Join(completedShells, " "))
		case argAgent:
			b.WriteString("            else\n" + bashAgents(c.flags))
		}
		b.WriteString("            fi ;;\n")
	}
	return b.String()
}

// bashAgents completes the agent, the command's first argument: the words after the
// command are counted, skipping its options and their values, and --config's value is
// passed on to `sidekicks completion agents`.
func bashAgents(flags []flagInfo) string {
	others := slices.DeleteFunc(append(fileFlags(flags), valueFlags(flags)...), func(f string) bool { return strings.TrimLeft(f, "-") == "config" })
	skip := ""
	if len(others) > 0 {
		skip = "                        " + strings.Join(others, "|") + ") ((j++)) ;;\n"
	}
	return `                local j config= n=0
                for ((j = i + 1; j < COMP_CWORD; j++)); do
                    case ${COMP_WORDS[j]} in
                        --config|-config) config=${COMP_WORDS[j+1]}; ((j++)) ;;
` + skip + `                        -*) ;;
                        *) ((n++)) ;;
                    esac
                done
                if ((n == 0)); then
                    mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" completion agents ${config:+--config "$config"} 2>/dev/null)" -- "$cur")
                fi
`
}

// zshQuote quotes s as one zsh single-quoted word.
func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// zshDescription escapes the brackets and colons that _arguments' specifications give a
// meaning, for an option's description.
func zshDescription(s string) string {
	return strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

// zshSpecs writes the _arguments specification of each option.
func zshSpecs(flags []flagInfo) string {
	var b strings.Builder
	for _, f := range flags {
		spec := "--" + f.name + "[" + zshDescription(f.usage) + "]"
		switch {
		case f.files():
			spec += ":" + f.value + ":_files"
		case f.value != "":
			spec += ":" + f.value + ": "
		}
		b.WriteString(" \\\n        " + zshQuote(spec))
	}
	return b.String()
}

// writeZshCompletion writes the zsh script: put it as _sidekicks in a folder of $fpath,
// or `source <(sidekicks completion zsh)` after compinit.
func writeZshCompletion(w io.Writer, commands []completed) {
	var described, cases strings.Builder
	for _, c := range commands {
		described.WriteString("\n        " + zshQuote(c.name+":"+c.summary))
		args := ""
		switch c.args {
		case argFiles:
			args = ` '*:file:_files'`
		case argShell:
			args = " '1:shell:(" + strings.Join(completedShells, " ") + ")'"
		case argAgent:
			args = ` '1:agent:_sidekicks_agents' '*: :'`
		}
		fmt.Fprintf(&cases, "            %s) _arguments%s%s ;;\n", c.name, zshSpecs(c.flags), args)
	}
	fmt.Fprintf(w, `#compdef sidekicks
# zsh completion for sidekicks: save it as _sidekicks in a folder of $fpath, or load it
# with: source <(sidekicks completion zsh)
_sidekicks() {
    local curcontext=$curcontext state line
    local -a commands
    commands=(%s
    )
    _arguments -C%s \
        '(-)1: :->command' \
        '(-)*:: :->args'
    case $state in
        command) _describe -t commands 'sidekicks command' commands ;;
        args)
            case $line[1] in
%s            esac ;;
    esac
}
# The agents ask can run, from the configuration its --config names (or the usual one).
_sidekicks_agents() {
    local i
    local -a config agents
    i=${words[(I)--config]}
    (( i )) || i=${words[(I)-config]}
    (( i )) && config=(--config "${words[i+1]}")
    agents=(${(f)"$(sidekicks completion agents $config 2>/dev/null)"})
    compadd -a agents
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _sidekicks "$@"
else
    compdef _sidekicks sidekicks
fi
`, described.String(), zshSpecs(appFlags), cases.String())
}

// fishQuote quotes s for a fish single-quoted word.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// writeFishCompletion writes the fish script: save it in
// ~/.config/fish/completions/sidekicks.fish, or `sidekicks completion fish | source`.
func writeFishCompletion(w io.Writer, commands []completed) {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	fmt.Fprintln(w, "# fish completion for sidekicks: save it as ~/.config/fish/completions/sidekicks.fish,")
	fmt.Fprintln(w, "# or load it with: sidekicks completion fish | source")
	fmt.Fprintln(w, "complete -c sidekicks -f")
	writeFishFlags(w, "__fish_use_subcommand", appFlags)
	for _, c := range commands {
		fmt.Fprintf(w, "complete -c sidekicks -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.summary))
	}
	for _, c := range commands {
		cond := fishQuote("__fish_seen_subcommand_from " + c.name)
		writeFishFlags(w, cond, c.flags)
		switch c.args {
		case argFiles:
			fmt.Fprintf(w, "complete -c sidekicks -n %s -F\n", cond)
		case argShell:
			fmt.Fprintf(w, "complete -c sidekicks -n %s -a %s\n", cond, fishQuote(strings.Join(completedShells, " ")))
		case argAgent:
			writeFishAgents(w, c)
		}
	}
}

// writeFishFlags writes one line per option, where cond holds.
func writeFishFlags(w io.Writer, cond string, flags []flagInfo) {
	for _, f := range flags {
		value := ""
		switch {
		case f.files():
			value = " -r -F"
		case f.value != "":
			value = " -x"
		}
		fmt.Fprintf(w, "complete -c sidekicks -n %s -l %s%s -d %s\n", cond, f.name, value, fishQuote(f.usage))
	}
}

// writeFishAgents completes the agent, the first argument of c (ask): a function counts
// the words after the command, skipping its options and their values, and passes
// --config's value on to `sidekicks completion agents`.
func writeFishAgents(w io.Writer, c completed) {
	var skip []string
	for _, f := range c.flags {
		if f.value != "" && f.name != "config" {
			skip = append(skip, "--"+f.name, "-"+f.name)
		}
	}
	fmt.Fprintf(w, `function __sidekicks_agents
    set -l words (commandline -opc)
    set -l config
    set -l after 0
    set -l skip 0
    set -l n 0
    for w in $words[2..-1]
        if test $skip = config
            set config --config $w
            set skip 0
        else if test $skip = 1
            set skip 0
        else if test $after = 0
            test "$w" = %[1]s; and set after 1
        else
            switch $w
                case --config -config
                    set skip config
`, c.name)
	if len(skip) > 0 {
		fmt.Fprintf(w, "                case %s\n                    set skip 1\n", strings.Join(skip, " "))
	}
	fmt.Fprintf(w, `                case '-*'
                case '*'
                    set n (math $n + 1)
            end
        end
    end
    test $n = 0; and $words[1] completion agents $config 2>/dev/null
end
complete -c sidekicks -n %s -a '(__sidekicks_agents)'
`, fishQuote("__fish_seen_subcommand_from "+c.name))
}
