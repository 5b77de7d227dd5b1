package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// allowStdin is where `sidekicks allow` reads the user's answer; tests replace it.
var allowStdin io.Reader = os.Stdin

// allowMsg names a message `sidekicks allow` prints, in every language.
type allowMsg int

const (
	allowNoFile allowMsg = iota
	allowRefused
	allowDefines
	allowQuestion
	allowDone
	allowNotDone
	allowAlready
	allowFailed
	allowMsgCount // not a message
)

var allowTextsEN = [allowMsgCount]string{
	allowNoFile:   "there is no %s in %s",
	allowRefused:  "the project's agents file has errors: nothing to allow",
	allowDefines:  "%s defines these agents; allowing it lets Sidekicks run them:",
	allowQuestion: "Allow these agents to run? [y/N] ",
	allowDone:     "allowed %s; a change to the file must be allowed again",
	allowNotDone:  "not allowed",
	allowAlready:  "%s is already allowed, as it is",
	allowFailed:   "the approval could not be recorded: %s",
}

var allowTextsFR = [allowMsgCount]string{
	allowNoFile:   "il n'y a pas de %s dans %s",
	allowRefused:  "le fichier d'agents du projet a des erreurs : rien à autoriser",
	allowDefines:  "%s définit ces agents ; l'autoriser permet à Sidekicks de les lancer :",
	allowQuestion: "Autoriser ces agents à s'exécuter ? [o/N] ",
	allowDone:     "%s est autorisé ; une modification du fichier devra être autorisée à nouveau",
	allowNotDone:  "non autorisé",
	allowAlready:  "%s est déjà autorisé, tel qu'il est",
	allowFailed:   "l'autorisation n'a pas pu être enregistrée : %s",
}

var allowCatalogue = i18n.NewCatalogue[allowMsg](allowTextsEN[:], allowTextsFR[:])

// runAllow shows the project agents file of the current folder, agent by agent (the
// command line each runs), and records the user's approval of it as it is: its path and
// the hash of its content. It asks on stdin unless --yes.
func runAllow(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("allow", allowSynopsis, stderr)
	yes := fs.Bool("yes", false, "allow without asking")
	cfgPath := fs.String("config", "", "the configuration `FILE`, for its language (default: $SIDEKICKS_CONFIG, then the last file opened, then the default file)")
	if code, ok := parseNoArgs(fs, args, stderr); !ok {
		return code
	}
	cfg := allowConfig(*cfgPath)
	lang := cfg.UI.Language
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "sidekicks allow: %v\n", err)
		return 1
	}
	project := config.ReadProject(wd, lang)
	switch {
	case project.Path == "":
		fmt.Fprintf(stderr, "sidekicks allow: %s\n", allowCatalogue.Text(lang, allowNoFile, config.ProjectFile, safetext.Line(wd)))
		return 1
	case project.Diags.HasErrors():
		for _, d := range project.Diags {
			fmt.Fprintln(stderr, d.Text(lang))
		}
		fmt.Fprintf(stderr, "sidekicks allow: %s\n", allowCatalogue.Text(lang, allowRefused))
		return 1
	case project.Trusted:
		fmt.Fprintln(stdout, allowCatalogue.Text(lang, allowAlready, safetext.Line(project.Path)))
		return 0
	}
	fmt.Fprintln(stdout, allowCatalogue.Text(lang, allowDefines, safetext.Line(project.Path)))
	for _, a := range project.Agents {
		for _, l := range config.DescribeProjectAgent(lang, a) {
			fmt.Fprintln(stdout, "  "+safetext.Line(l))
		}
		// Where a name is taken, the user sees which agent runs before answering.
		if c := config.ProjectCollision(cfg, a, project.Path); c != "" {
			fmt.Fprintln(stdout, "  "+safetext.Line(c))
		}
	}
	for _, d := range project.Diags {
		fmt.Fprintln(stdout, d.Text(lang))
	}
	if !*yes {
		fmt.Fprint(stdout, allowCatalogue.Text(lang, allowQuestion))
		answer, _ := bufio.NewReader(allowStdin).ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes", "o", "oui":
		default:
			fmt.Fprintln(stdout, allowCatalogue.Text(lang, allowNotDone))
			return 1
		}
	}
	if err := project.Allow(); err != nil {
		fmt.Fprintf(stderr, "sidekicks allow: %s\n", allowCatalogue.Text(lang, allowFailed, safetext.Line(err.Error())))
		return 1
	}
	fmt.Fprintln(stdout, allowCatalogue.Text(lang, allowDone, safetext.Line(project.Path)))
	return 0
}

// allowConfig is the configuration found as config.Locate finds it, without creating the
// default file when there is none: for its language and its agents' names (a project agent
// that takes one is said). A configuration that cannot be read gives LANG's language and no
// agents.
func allowConfig(flagValue string) *config.Config {
	path := flagValue
	if path == "" {
		path = os.Getenv(config.EnvConfig)
	}
	if path == "" {
		if prefs, _ := config.LoadPreferences(); prefs.LastOpened != "" {
			path = prefs.LastOpened
		}
	}
	if path == "" {
		path, _ = config.DefaultPath()
	}
	data, err := config.ReadConfigFile(context.Background(), path)
	if path == "" || err != nil {
		return &config.Config{UI: config.UI{Language: config.LanguageOf(nil)}}
	}
	cfg, _ := config.Parse(path, data)
	if cfg == nil {
		return &config.Config{UI: config.UI{Language: config.LanguageOf(data)}}
	}
	return cfg
}
