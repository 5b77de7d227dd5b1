package config

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// WizardPreview is what the "Add an agent" wizard shows before writing: the agent, the
// text the file gains, and the loader's warnings about the result.
type WizardPreview struct {
	// Spec is the agent, as WizardSpec made it.
	Spec AgentSpec
	// Agent is the entry as RenderAgent writes it: what ApplyWizard appends.
	Agent []byte
	// Added is the text the file gains, exactly as it will be written: the new entry with
	// the indentation of the file's list (for a list written in flow style, the lines
	// that change), without the blank lines around it.
	Added []byte
	// Warnings are the loader's warnings about the new agent (a program not found: it
	// may be installed later).
	Warnings Diagnostics
	// Lang is the language of the loader's messages: the file's, for whatever is shown
	// next to them (WarningMark).
	Lang i18n.Lang
	// MissingWorkspace is the agent's workspace (absolute) when it does not exist yet,
	// which Warnings then says; the wizard offers to create it (CreateWorkspace).
	MissingWorkspace string
}

// PreviewWizard computes what the wizard would append to the configuration file at
// configPath, without writing anything. When in.BaseDir is empty, it is the
// configuration's folder. The error is a *WizardError for what the wizard refuses
// itself, the loader's Diagnostics when the file with the new agent would not load (in
// the file's language, as the loader gives them), or a wrapped I/O error.
func PreviewWizard(configPath string, in WizardInput) (WizardPreview, error) {
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return WizardPreview{}, fmt.Errorf("previewing the new agent for %s: %w", configPath, err)
	}
	if in.BaseDir == "" {
		in.BaseDir = filepath.Dir(abs)
	}
	spec, err := WizardSpec(in)
	if err != nil {
		return WizardPreview{}, err
	}
	p := WizardPreview{Spec: spec, Agent: RenderAgent(spec)}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return WizardPreview{}, fmt.Errorf("previewing the new agent for %s: %w", configPath, err)
	}
	data, err := readBounded(context.Background(), target, maxFileSize)
	if err != nil {
		return WizardPreview{}, fmt.Errorf("previewing the new agent for %s: %w", configPath, err)
	}
	block, item, err := agentItem(p.Agent)
	if err != nil {
		return WizardPreview{}, fmt.Errorf("previewing the new agent for %s: %w", configPath, err)
	}
	out, err := insertAgent(data, block, item)
	if err != nil {
		// As AppendAgent does: a file that does not load says why in its own words.
		if _, diags := Parse(configPath, data); diags.HasErrors() {
			return WizardPreview{}, diags
		}
		return WizardPreview{}, fmt.Errorf("previewing the new agent for %s: %w", configPath, err)
	}
	cfg, diags := Parse(configPath, out)
	if diags.HasErrors() {
		return WizardPreview{}, diags
	}
	p.Added = changedLines(data, out)
	p.Lang = LanguageOf(out)
	prefix := "agents[" + strconv.Itoa(len(cfg.Agents)-1) + "]"
	for _, d := range diags {
		if d.Key == prefix || strings.HasPrefix(d.Key, prefix+".") || strings.HasPrefix(d.Key, prefix+"[") {
			p.Warnings = append(p.Warnings, d)
		}
	}
	p.noteMissingWorkspace(cfg.Agents[len(cfg.Agents)-1], prefix)
	return p, nil
}

// ApplyWizard appends the previewed agent to the configuration file at configPath with
// AppendAgent: the rest of the file, comments included, is kept, and nothing is written
// when the result would not load (the file may have changed since the preview); the
// error is then the loader's Diagnostics.
func ApplyWizard(configPath string, p WizardPreview) error {
	return AppendAgent(configPath, p.Agent)
}

// changedLines returns the lines of after that are not in before, found by the lines the
// two have in common at the start and at the end, without blank lines around them.
func changedLines(before, after []byte) []byte {
	a := bytes.SplitAfter(before, []byte("\n"))
	b := bytes.SplitAfter(after, []byte("\n"))
	start := 0
	for start < len(a) && start < len(b) && bytes.Equal(a[start], b[start]) {
		start++
	}
	end := 0
	for end < len(a)-start && end < len(b)-start && bytes.Equal(a[len(a)-1-end], b[len(b)-1-end]) {
		end++
	}
	lines := b[start : len(b)-end]
	for len(lines) > 0 && isBlank(bytes.TrimRight(lines[0], "\r\n")) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlank(bytes.TrimRight(lines[len(lines)-1], "\r\n")) {
		lines = lines[:len(lines)-1]
	}
	return bytes.Join(lines, nil)
}
