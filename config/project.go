package config

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
	"github.com/BurntSushi/toml"
)

// ProjectFile is where a project keeps its own agents, relative to the folder Sidekicks
// was started in (Turbo Python's acp.toml format).
const ProjectFile = ".sidekicks/acp.toml"

// maxProjectFileSize bounds what LoadProject reads: an agents file is a few hundred bytes.
const maxProjectFileSize = 1 << 20

// LoadProject reads dir's project agents file, <dir>/.sidekicks/acp.toml. An absent file
// gives no agents and no diagnostics. A file with a problem (an agent without name or
// command, two agents with the same name or the same derived name, an unknown key, a
// syntax error) is refused as a whole: no agents, and one diagnostic per problem, in
// lang. A command that cannot be found is only a warning.
//
// Each [[agent]] becomes an Agent whose Title is the name as written and whose Name is
// derived from it (see NameFromTitle), so that @name works; command and cwd are relative
// to dir, and the runtime is local.
func LoadProject(dir string, lang i18n.Lang) ([]Agent, Diagnostics) {
	p := readProject(context.Background(), dir, lang)
	return p.Agents, p.Diags
}

// Project is a folder's project agents file as read once: its agents, its problems, and
// whether the user allowed this content (see Trusted). Its agents are to be merged only
// when Trusted.
type Project struct {
	// Path is the file's absolute path; "" when the folder has no file.
	Path   string
	Agents []Agent
	Diags  Diagnostics
	// Trusted is true when the user allowed this path with this very content.
	Trusted bool
	// data is the content read, which Allow records.
	data []byte
}

// Allow records the user's approval of the file as it was read (its path and the hash of
// its content).
func (p Project) Allow() error {
	if p.Path == "" {
		return errors.New("there is no project agents file to allow")
	}
	return Allow(p.Path, p.data)
}

// ReadProject reads dir's project agents file like LoadProject, and says whether the user
// allowed it. The content is read once: what is parsed is what is hashed.
func ReadProject(dir string, lang i18n.Lang) Project {
	return ReadProjectContext(context.Background(), dir, lang)
}

// ReadProjectContext is ReadProject, giving up the read as soon as ctx is done.
func ReadProjectContext(ctx context.Context, dir string, lang i18n.Lang) Project {
	p := readProject(ctx, dir, lang)
	if p.data != nil && !p.Diags.HasErrors() {
		p.Trusted = Trusted(p.Path, p.data)
	}
	return p
}

// readProject is ReadProject without looking at the approvals (Trusted is false).
func readProject(ctx context.Context, dir string, lang i18n.Lang) Project {
	abs, err := filepath.Abs(dir)
	if err == nil {
		dir = abs
	}
	path := filepath.Join(dir, filepath.FromSlash(ProjectFile))
	// Read as the configuration is (see readBounded): a regular file, bounded, in time.
	data, err := readBounded(ctx, path, maxProjectFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return Project{}
	}
	if err != nil {
		p := &projectLoad{path: path, dir: dir, lang: lang}
		refusal, refused := readRefusalText(lang, err)
		switch {
		case refused:
			p.diags = append(p.diags, Diagnostic{File: path, Message: projectCatalogue.Text(lang, pReading, safetext.Escaped(path)) + refusal})
		case errors.Is(err, errIsFolder):
			p.fail(0, "", pIsFolder)
		case errors.Is(err, errTooLarge):
			p.fail(0, "", pTooLarge, maxProjectFileSize>>10)
		case errors.Is(err, fs.ErrPermission):
			p.fail(0, "", pPermission)
		default:
			p.fail(0, "", pUnreadable, err)
		}
		return Project{Path: path, Diags: p.diags}
	}
	agents, diags := parseProject(dir, path, lang, data)
	return Project{Path: path, Agents: agents, Diags: diags, data: data}
}

// NotAllowedText is what is said of a project agents file defining n agents that the
// user has not allowed, in lang.
func NotAllowedText(lang i18n.Lang, n int) string {
	if n == 1 {
		return projectText(lang, "", pNotAllowedOne)
	}
	return projectText(lang, "", pNotAllowed, n)
}

// parseProject reads the project agents file at path, whose content is data; dir is the
// project's folder.
func parseProject(dir, path string, lang i18n.Lang, data []byte) ([]Agent, Diagnostics) {
	p := &projectLoad{path: path, dir: dir, lang: lang, lines: projectLines(string(data))}
	return p.load(string(data))
}

// projectLoad is the state of one LoadProject.
type projectLoad struct {
	path, dir string
	lang      i18n.Lang
	lines     projectLineIndex
	diags     Diagnostics
}

// fail records an error; args complete the message of that id.
func (p *projectLoad) fail(line int, key string, m projectMessage, args ...any) {
	p.report(line, key, false, m, args...)
}

func (p *projectLoad) warn(line int, key string, m projectMessage, args ...any) {
	p.report(line, key, true, m, args...)
}

func (p *projectLoad) report(line int, key string, warning bool, m projectMessage, args ...any) {
	p.diags = append(p.diags, Diagnostic{
		File:    p.path,
		Line:    line,
		Key:     key,
		Message: projectText(p.lang, p.path, m, args...),
		Warning: warning,
	})
}

func (p *projectLoad) load(text string) ([]Agent, Diagnostics) {
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			p.fail(pe.Position.Line, "", pSyntax, pe.Position.Line, pe.Message)
		} else {
			p.fail(0, "", pSyntax, 0, err.Error())
		}
		return nil, p.diags
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		li, lj := p.lines.topKeyLine(keys[i]), p.lines.topKeyLine(keys[j])
		if li != lj {
			return li < lj
		}
		return keys[i] < keys[j]
	})
	var list []map[string]any
	for _, k := range keys {
		if k != "agent" {
			p.fail(p.lines.topKeyLine(k), k, pUnknownKey, toml.Key{k}.String())
			continue
		}
		var ok bool
		if list, ok = agentTables(raw[k]); !ok {
			p.fail(p.lines.topKeyLine(k), k, pAgentNotList)
		}
	}
	agents := make([]Agent, 0, len(list))
	titles := map[string]bool{}
	derived := map[string]string{} // derived name -> title of the first agent with it
	for i, table := range list {
		a, ok := p.agent(i+1, table)
		if !ok {
			continue
		}
		if titles[a.Title] {
			p.fail(a.Line, "agent.name", pSameName, p.quote(a.Title))
			continue
		}
		titles[a.Title] = true
		if first, dup := derived[a.Name]; dup {
			p.fail(a.Line, "agent.name", pSameDerived, p.quote(first), p.quote(a.Title), p.quote(a.Name))
			continue
		}
		derived[a.Name] = a.Title
		agents = append(agents, a)
	}
	if p.diags.HasErrors() {
		return nil, p.diags
	}
	return agents, p.diags
}

// agentTables returns the [[agent]] tables of v, which TOML gives as a list of tables (or
// a list of inline tables).
func agentTables(v any) ([]map[string]any, bool) {
	switch v := v.(type) {
	case []map[string]any:
		return v, true
	case []any:
		out := make([]map[string]any, 0, len(v))
		for _, x := range v {
			t, ok := x.(map[string]any)
			if !ok {
				return nil, false
			}
			out = append(out, t)
		}
		return out, true
	}
	return nil, false
}

// projectKeys are the keys an [[agent]] may have.
var projectKeys = map[string]bool{"name": true, "command": true, "args": true, "env": true, "cwd": true}

// agent checks one [[agent]] table (index is 1-based) and turns it into an Agent; ok is
// false when it has an error, already reported.
func (p *projectLoad) agent(index int, t map[string]any) (Agent, bool) {
	line := p.lines.agentLine(index)
	before := len(p.diags)
	label := p.agentLabel(index, t)

	title, hasName := p.text(index, t, "name", label)
	title = strings.TrimSpace(title)
	if hasName && title == "" {
		p.fail(line, "agent.name", pNoName, p.agentLabel(index, nil))
	}
	command, hasCommand := p.text(index, t, "command", label)
	if hasCommand && strings.TrimSpace(command) == "" {
		p.fail(line, "agent.command", pNoCommand, label)
	}
	args := p.textList(index, t, "args", label)
	env := p.textTable(index, t, "env", label)
	cwd, _ := p.text(index, t, "cwd", label)

	var unknown []string
	for k := range t {
		if !projectKeys[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Slice(unknown, func(i, j int) bool {
		li, lj := p.lines.keyLine(index, unknown[i]), p.lines.keyLine(index, unknown[j])
		if li != lj {
			return li < lj
		}
		return unknown[i] < unknown[j]
	})
	for _, k := range unknown {
		key := toml.Key{"agent", k}.String()
		p.fail(p.lines.keyLine(index, k), key, pUnknownKey, key)
	}
	if len(p.diags) > before {
		return Agent{}, false
	}

	workspace := p.dir
	if cwd != "" {
		workspace = resolveAgainst(p.dir, cwd)
	}
	a := Agent{
		Name:      NameFromTitle(title),
		Title:     title,
		Command:   command,
		Args:      append([]string{}, args...),
		Env:       env,
		Workspace: workspace,
		Runtime: Runtime{
			Type:          DefaultRuntime,
			WorkspacePath: workspace,
			Lifecycle:     Lifecycle{Folder: workspace},
		},
		Source: p.path,
		Line:   line,
	}
	a.CommandPath = findProjectCommand(p.dir, command)
	if a.CommandPath == "" {
		m := pNotInPath
		if hasPathSeparator(command) {
			m = pNoSuchCommand
		}
		p.warn(p.lines.keyLine(index, "command"), "agent.command", m, label, p.quote(command))
	}
	return a, true
}

// agentLabel names an agent in a message: by its name when it has one, else by its rank.
func (p *projectLoad) agentLabel(index int, t map[string]any) string {
	if s, ok := t["name"].(string); ok && strings.TrimSpace(s) != "" {
		return projectText(p.lang, "", pAgentNamed, p.quote(strings.TrimSpace(s)))
	}
	return projectText(p.lang, "", pAgentNumber, index)
}

// quote puts a name from the file between the quotes of p's language, with its control
// characters escaped.
func (p *projectLoad) quote(s string) string {
	return quoteIn(p.lang, s)
}

// text returns the string at key, and whether the key is usable: a missing name or
// command, or a value that is not text, is reported and gives false.
func (p *projectLoad) text(index int, t map[string]any, key, label string) (string, bool) {
	v, present := t[key]
	if !present {
		switch key {
		case "name":
			p.fail(p.lines.agentLine(index), "agent.name", pNoName, label)
			return "", false
		case "command":
			p.fail(p.lines.agentLine(index), "agent.command", pNoCommand, label)
			return "", false
		}
		return "", true
	}
	s, ok := v.(string)
	if !ok {
		p.fail(p.lines.keyLine(index, key), "agent."+key, pWantText, label, key)
		return "", false
	}
	return s, true
}

func (p *projectLoad) textList(index int, t map[string]any, key, label string) []string {
	v, present := t[key]
	if !present {
		return nil
	}
	list, ok := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, isText := x.(string)
		if !isText {
			ok = false
			break
		}
		out = append(out, s)
	}
	if !ok {
		p.fail(p.lines.keyLine(index, key), "agent."+key, pWantList, label, key)
		return nil
	}
	return out
}

func (p *projectLoad) textTable(index int, t map[string]any, key, label string) map[string]string {
	v, present := t[key]
	if !present {
		return nil
	}
	table, ok := v.(map[string]any)
	out := make(map[string]string, len(table))
	for k, x := range table {
		s, isText := x.(string)
		if !isText {
			ok = false
			break
		}
		out[k] = s
	}
	if !ok {
		p.fail(p.lines.keyLine(index, key), "agent."+key, pWantTable, label, key)
		return nil
	}
	return out
}

// findProjectCommand returns where command is: looked up in PATH when it is a bare name,
// resolved against dir when it contains a separator; "" when it is not found.
func findProjectCommand(dir, command string) string {
	if hasPathSeparator(command) {
		path := resolveAgainst(dir, command)
		if st, err := os.Stat(path); err == nil && !st.IsDir() {
			return path
		}
		return ""
	}
	return lookPathAbs(command)
}

func hasPathSeparator(s string) bool {
	return strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator)
}

// resolveAgainst expands a leading ~ and makes p absolute against dir.
func resolveAgainst(dir, p string) string {
	p = expandTildePath(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// ProjectCollision is the warning, in the configuration's language, that the project
// agent a is left out because cfg already has an agent of its name, which is kept ("" when
// the name is free); source, when not "", is the file named first ("reading …: ").
func ProjectCollision(cfg *Config, a Agent, source string) string {
	existing := cfg.Agent(a.Name)
	if existing == nil {
		return ""
	}
	lang := cfg.UI.Language
	return projectText(lang, source, pCollides, quoteIn(lang, a.Title), a.Name, quoteIn(lang, existing.Title))
}

// MergeProject adds the project's agents after the configuration's, in the file's order,
// each marked Project. A project agent never replaces an agent of the configuration: when
// its name is already taken, the configuration's is kept and the project's is left out,
// with a warning (in the configuration's language) naming both.
func MergeProject(cfg *Config, agents []Agent) Diagnostics {
	var diags Diagnostics
	for _, a := range agents {
		if collision := ProjectCollision(cfg, a, a.Source); collision != "" {
			diags = append(diags, Diagnostic{File: a.Source, Line: a.Line, Message: collision, Warning: true})
			continue
		}
		a.Project = true
		// Its title carries the mark wherever it is shown (menu, panel, window titles,
		// replies), so that a project agent is never taken for one of the user's.
		title := a.Title
		if title == "" {
			title = a.Name
		}
		a.Title = title + " " + projectCatalogue.Text(cfg.UI.Language, pMark)
		cfg.Agents = append(cfg.Agents, a)
	}
	return diags
}
