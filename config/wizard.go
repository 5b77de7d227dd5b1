package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// Where an agent of the "Add an agent" wizard runs: WizardInput.Where.
const (
	WhereLocal     = "local"     // on this computer
	WhereContainer = "container" // in a Docker container
	WhereSbx       = "sbx"       // in an sbx sandbox
)

// WizardInput is what the user typed in the "Add an agent" wizard, field by field.
// Every field is trimmed of surrounding spaces before use.
type WizardInput struct {
	// Name is the name used with @; Title the display name; Icon an emoji or a letter;
	// Description what the agent does. Empty ones are left out.
	Name, Title, Icon, Description string
	// Folder is the agent's folder, written as workspace as typed (the loader resolves ~
	// and relative paths like any workspace's). An agent configuration file replaces it.
	Folder string
	// Where is WhereLocal (also when empty), WhereContainer or WhereSbx.
	Where string
	// Container is the container's name (WhereContainer); Sandbox the sandbox's (WhereSbx).
	Container, Sandbox string
	// Program is the program that speaks ACP, split like Arguments unless it is a path
	// (it starts with / or ~): "docker agent" is the program docker with agent as its
	// first argument.
	Program string
	// Arguments are split the way a shell does in simple cases: see splitWords.
	Arguments string
	// AgentConfigFile is the agent's own configuration file (dropped or chosen), or "".
	// When given, the agent's folder is the file's folder, and for the programs mm,
	// docker-agent and docker agent the arguments are the ones that file needs, with its
	// absolute path. A relative path is taken from BaseDir, ~ is the home folder, and a
	// path a terminal wrote for a dropped file (quoted, or with "\ " for its spaces) is
	// read back as the one path it names.
	AgentConfigFile string
	// LifecycleFolder is where the lifecycle commands run (written as typed); Create,
	// Stop and Remove are the commands that create, stop and remove the sandbox, each
	// split like Arguments. The dialog offers them for sbx, as the specification's table
	// says; WizardSpec writes them for a container too (the specification shows the
	// wizard writing a Compose service's lifecycle), and refuses them for an agent that
	// runs on this computer. runtime.lifecycle is left out when no command is given.
	LifecycleFolder, CreateCommand, StopCommand, RemoveCommand string
	// BaseDir is the folder a relative AgentConfigFile is taken from: the configuration
	// file's folder. PreviewWizard sets it when it is empty.
	BaseDir string
}

// The wizard's field names, for WizardError.Field.
const (
	FieldWhere           = "Where"
	FieldProgram         = "Program"
	FieldArguments       = "Arguments"
	FieldAgentConfigFile = "AgentConfigFile"
	FieldCreateCommand   = "CreateCommand"
	FieldStopCommand     = "StopCommand"
	FieldRemoveCommand   = "RemoveCommand"
	FieldLifecycleFolder = "LifecycleFolder"
)

// WizardError is a problem with what was typed in the wizard that stops it before the
// loader sees anything (an unterminated quote, a container with no program). Problems
// the loader can see (a bad name, a name taken, no program for an agent on this
// computer) come back as the loader's Diagnostics instead.
type WizardError struct {
	// Field is the WizardInput field at fault (FieldArguments…), for the dialog to go to.
	Field string
	text  message
	args  []any
}

// Error returns the English message, with the field in front.
func (e *WizardError) Error() string { return e.Message(i18n.English) }

// Message returns the message in lang with the field in front, as the loader's messages
// put the key in front: `arguments: the quote " opened at character 7 is not closed`,
// « arguments : le guillemet " ouvert au caractère 7 n'est pas fermé ».
func (e *WizardError) Message(lang i18n.Lang) string {
	return catalogue.Text(lang, mFieldProblem, catalogue.Text(lang, wizardFieldNames[e.Field]), e.Text(lang))
}

// Text returns the message in lang without the field (for a dialog that shows it next to
// the field).
func (e *WizardError) Text(lang i18n.Lang) string { return catalogue.Text(lang, e.text, e.args...) }

// wizardFieldNames are the messages that name the fields as the dialog does.
var wizardFieldNames = map[string]message{
	FieldWhere:           mFieldWhere,
	FieldProgram:         mFieldProgram,
	FieldArguments:       mFieldArguments,
	FieldAgentConfigFile: mFieldAgentConfigFile,
	FieldCreateCommand:   mFieldCreateCommand,
	FieldStopCommand:     mFieldStopCommand,
	FieldRemoveCommand:   mFieldRemoveCommand,
	FieldLifecycleFolder: mFieldLifecycleFolder,
}

func wizardError(field string, text message, args ...any) *WizardError {
	return &WizardError{Field: field, text: text, args: args}
}

// WizardSpec turns what was typed in the wizard into the agent it writes, exactly as the
// specification's tables say ("Ce qu'écrit l'assistant « Ajouter un agent »"):
//
//   - name, title, icon, description, empty ones left out; workspace as typed;
//   - on this computer: command <program>, args [<arguments>];
//   - in a Docker container: command docker, args [exec, -i, -w, <workspace>, <container>,
//     <program>, <arguments>] (see containerExecArgs), runtime {type: container,
//     container: <container>};
//   - in an sbx sandbox: command sbx, args [exec, -i, <sandbox>, <program>,
//     <arguments>], runtime {type: sbx, sandbox: <sandbox>};
//   - runtime.lifecycle {folder, create, stop, remove}, each command split like the
//     arguments, left out when no command is given;
//   - with the agent's configuration file: workspace is its folder, and the arguments
//     are --acp --config <file> for mm, serve acp <file> for docker-agent, agent serve acp
//     <file> for docker agent (a path whose last element is mm or docker-agent counts),
//     the typed ones for any other program; a container or sandbox wraps them the same.
//
// It returns a *WizardError for what the loader could not see; everything else (a bad
// name, a missing program on this computer, a container with no name) is left for the
// loader to refuse, with its own messages, when the agent is appended.
func WizardSpec(in WizardInput) (AgentSpec, error) {
	spec := AgentSpec{
		Name:        strings.TrimSpace(in.Name),
		Title:       strings.TrimSpace(in.Title),
		Icon:        strings.TrimSpace(in.Icon),
		Description: strings.TrimSpace(in.Description),
		Workspace:   strings.TrimSpace(in.Folder),
	}
	where := strings.TrimSpace(in.Where)
	if where == "" {
		where = WhereLocal
	}
	if where != WhereLocal && where != WhereContainer && where != WhereSbx {
		return AgentSpec{}, wizardError(FieldWhere, mNotAPlace, printable(where))
	}
	program, err := splitProgram(in.Program)
	if err != nil {
		return AgentSpec{}, err
	}
	args, err := splitField(FieldArguments, in.Arguments)
	if err != nil {
		return AgentSpec{}, err
	}
	if file := strings.TrimSpace(in.AgentConfigFile); file != "" {
		abs, err := agentConfigPath(file, in.BaseDir)
		if err != nil {
			return AgentSpec{}, err
		}
		spec.Workspace = filepath.Dir(abs)
		if special, ok := configFileArgs(program, abs); ok {
			program, args = special, nil
		}
	}
	command := append(append([]string(nil), program...), args...)
	switch where {
	case WhereLocal:
		if len(program) > 0 {
			spec.Command, spec.Args = command[0], command[1:]
		} else {
			spec.Args = args // no command: the loader says it is missing
		}
		if lifecycleTyped(in) {
			return AgentSpec{}, wizardError(FieldLifecycleFolder, mLifecycleLocal)
		}
		return spec, nil
	case WhereContainer:
		box := strings.TrimSpace(in.Container)
		spec.Runtime = Runtime{Type: WhereContainer, Container: box}
		spec.Command, spec.Args = "docker", containerExecArgs(box, wizardWorkdir(spec.Workspace, in.BaseDir), nil, command)
	case WhereSbx:
		box := strings.TrimSpace(in.Sandbox)
		spec.Runtime = Runtime{Type: WhereSbx, Sandbox: box}
		spec.Command, spec.Args = "sbx", execArgs(box, command)
	}
	if len(program) == 0 {
		return AgentSpec{}, wizardError(FieldProgram, mNoProgram)
	}
	lc, err := wizardLifecycle(in)
	if err != nil {
		return AgentSpec{}, err
	}
	spec.Runtime.Lifecycle = lc
	return spec, nil
}

// execArgs is what docker exec and sbx exec need to run command in box.
func execArgs(box string, command []string) []string {
	args := []string{"exec", "-i"}
	if box != "" {
		args = append(args, box) // without it the loader says the runtime lacks its name
	}
	return append(args, command...)
}

// containerExecArgs is what docker exec needs to run command in box as the agent expects
// it: docker exec forwards neither the client's working folder nor its environment, so the
// agent's workspace inside the container (workdir: workspacePath, which the wizard leaves
// at workspace's path) goes with -w, when known, and each of envKeys, the agent's env,
// with -e NAME (docker takes the value from its own environment, which holds the agent's
// env). The wizard has no env field yet: it passes none.
func containerExecArgs(box, workdir string, envKeys []string, command []string) []string {
	args := []string{"exec", "-i"}
	if workdir != "" {
		args = append(args, "-w", workdir)
	}
	for _, k := range envKeys {
		args = append(args, "-e", k)
	}
	if box != "" {
		args = append(args, box) // without it the loader says the runtime lacks its name
	}
	return append(args, command...)
}

// wizardWorkdir is the absolute path the loader makes of the workspace as typed ("" is the
// configuration's folder, base; ~ the home folder; a relative path starts from base), or
// "" when it cannot be known here.
func wizardWorkdir(workspace, base string) string {
	switch {
	case workspace == "~" || strings.HasPrefix(workspace, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		workspace = filepath.Join(home, workspace[1:])
	case !filepath.IsAbs(workspace):
		if !filepath.IsAbs(base) {
			return ""
		}
		workspace = filepath.Join(base, workspace)
	}
	return filepath.Clean(workspace)
}

// splitProgram splits the program like the arguments, unless it is a path.
func splitProgram(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") {
		return []string{s}, nil
	}
	return splitField(FieldProgram, s)
}

// splitField splits a field's text into words, the error naming the field.
func splitField(field, s string) ([]string, error) {
	words, err := splitWords(s)
	var we *wordsError
	if errors.As(err, &we) {
		return nil, wizardError(field, mUnterminatedQuote, we.quote, we.at)
	}
	return words, err
}

// configFileArgs returns the program and the arguments that make program serve ACP with
// the configuration file at abs, for the programs the specification names.
func configFileArgs(program []string, abs string) ([]string, bool) {
	switch {
	case len(program) == 1 && filepath.Base(program[0]) == "mm":
		return []string{program[0], "--acp", "--config", abs}, true
	case len(program) == 1 && filepath.Base(program[0]) == "docker-agent":
		return []string{program[0], "serve", "acp", abs}, true
	case len(program) == 2 && filepath.Base(program[0]) == "docker" && program[1] == "agent":
		return []string{program[0], "agent", "serve", "acp", abs}, true
	}
	return nil, false
}

// agentConfigPath returns the absolute path of the agent's configuration file as typed
// or dropped: a terminal writes a dropped path quoted or with "\ " for its spaces, so a
// text that splits into one word is that word; otherwise it is taken as typed.
func agentConfigPath(typed, base string) (string, error) {
	if words, err := splitWords(typed); err == nil && len(words) == 1 && words[0] != "" {
		typed = words[0]
	}
	switch {
	case typed == "~" || strings.HasPrefix(typed, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", wizardError(FieldAgentConfigFile, mHomeUnknown)
		}
		typed = filepath.Join(home, typed[1:])
	case !filepath.IsAbs(typed):
		if base == "" || !filepath.IsAbs(base) {
			return "", wizardError(FieldAgentConfigFile, mNotAbsolutePath, printable(typed))
		}
		typed = filepath.Join(base, typed)
	}
	return filepath.Clean(typed), nil
}

// lifecycleTyped reports whether any lifecycle field holds something.
func lifecycleTyped(in WizardInput) bool {
	return strings.TrimSpace(in.LifecycleFolder+in.CreateCommand+in.StopCommand+in.RemoveCommand) != ""
}

// wizardLifecycle splits the three lifecycle commands.
func wizardLifecycle(in WizardInput) (Lifecycle, error) {
	var lc Lifecycle
	var err error
	if lc.Create, err = splitField(FieldCreateCommand, in.CreateCommand); err != nil {
		return Lifecycle{}, err
	}
	if lc.Stop, err = splitField(FieldStopCommand, in.StopCommand); err != nil {
		return Lifecycle{}, err
	}
	if lc.Remove, err = splitField(FieldRemoveCommand, in.RemoveCommand); err != nil {
		return Lifecycle{}, err
	}
	if len(lc.Create)+len(lc.Stop)+len(lc.Remove) > 0 {
		lc.Folder = strings.TrimSpace(in.LifecycleFolder)
	}
	return lc, nil
}
