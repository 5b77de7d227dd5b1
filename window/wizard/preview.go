package wizard

import (
	"os"
	"path/filepath"
	"strings"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// preview is the second step of the wizard: the lines the file will gain, the loader's
// warnings, and the buttons Add, Back and Cancel.
type preview struct {
	lang     i18n.Lang
	result   config.WizardPreview
	lines    []window.TextLine
	view     *window.TextView
	problems []string // why the write was refused
	status   string   // "Writing…"
	button   int
	buttons  buttonRow
}

// Buttons of the preview, in order.
const (
	previewAdd = iota
	previewBack
	previewCancel
)

func newPreview(lang i18n.Lang, configPath string, p config.WizardPreview) *preview {
	v := window.NewTextView()
	v.Class = window.ClassDialog
	lines := []window.TextLine{
		{Text: catalogue.Text(lang, tWillAdd), Class: window.ClassDialog},
		{Text: shortPath(configPath), Class: window.ClassDialog},
		{Class: window.ClassDialog},
	}
	for _, s := range strings.Split(strings.TrimRight(string(p.Added), "\r\n"), "\n") {
		lines = append(lines, window.TextLine{Text: strings.TrimSuffix(s, "\r"), Class: window.ClassDialogInput})
	}
	if len(p.Warnings) > 0 {
		lines = append(lines, window.TextLine{Class: window.ClassDialog})
		for _, w := range p.Warnings {
			lines = append(lines, window.TextLine{Text: config.WarningMark(p.Lang) + w.Message, Class: window.ClassDialog})
		}
	}
	v.SetLines(lines)
	return &preview{lang: lang, result: p, lines: lines, view: v,
		buttons: buttonRow{labels: []string{catalogue.Text(lang, tAdd), catalogue.Text(lang, tBack), window.NewLabels(lang).T(window.LabelCancel)}}}
}

// rows counts the rows the lines take once wrapped to width (the view keeps a column of
// margin on the left).
func (p *preview) rows(width int) int {
	n := 0
	for _, l := range p.lines {
		n += len(window.Wrap(l.Text, max(width-2, 1)))
	}
	return n
}

func (p *preview) problemRows(width int) []string {
	if p.status != "" {
		return []string{p.status}
	}
	var rows []string
	for _, m := range p.problems {
		rows = append(rows, window.Wrap(m, width)...)
	}
	if len(rows) > maxProblemRows {
		rows = append(rows[:maxProblemRows-1], "…")
	}
	return rows
}

func (p *preview) size(maxW, maxH int) (int, int) {
	rows := p.rows(maxW) + 2
	if n := len(p.problemRows(maxW)); n > 0 {
		rows += n + 1
	}
	return maxW, min(rows, maxH)
}

func (p *preview) draw(r window.Region) {
	W, H := r.Size()
	problems := p.problemRows(W)
	below := 2
	if len(problems) > 0 {
		keep := max(min(len(problems), H-below-2), 0)
		problems = problems[:keep]
		if keep > 0 {
			below += keep + 1
		}
	}
	viewH := max(H-below, 1)
	p.view.Draw(r.Sub(0, 0, W, viewH), false)
	y := viewH
	r.Line(y, "", window.ClassDialog)
	y++
	if len(problems) > 0 {
		class := window.ClassDialogError
		if p.status != "" {
			class = window.ClassDialog
		}
		for _, m := range problems {
			r.Line(y, m, class)
			y++
		}
		r.Line(y, "", window.ClassDialog)
		y++
	}
	for ; y < H-1; y++ {
		r.Line(y, "", window.ClassDialog)
	}
	p.buttons.draw(r, H-1, p.button)
}

// previewAction is what a key asks of the wizard: a button, or -1.
func (p *preview) handleEvent(ev window.Event) (bool, int) {
	n := len(p.buttons.labels)
	switch ev := ev.(type) {
	case window.Key:
		switch {
		case ev.Is(window.Named(window.KeyTab, 0)) || ev.Is(window.Named(window.KeyRight, 0)):
			p.button = (p.button + 1) % n
		case ev.Is(window.Named(window.KeyBacktab, 0)) || ev.Is(window.Named(window.KeyLeft, 0)):
			p.button = (p.button + n - 1) % n
		case ev.Is(window.Named(window.KeyEnter, 0)):
			return true, p.button
		case ev.Code == window.KeyRune && ev.Mod&(window.ModCtrl|window.ModAlt) == 0:
			if b := p.buttons.letter(ev.Rune); b >= 0 {
				p.button = b
				return true, b
			}
			return false, -1
		default:
			return p.view.HandleEvent(ev), -1
		}
		return true, -1
	case window.Mouse:
		if ev.Action == window.MousePress {
			if b := p.buttons.at(ev.X, ev.Y); b >= 0 {
				p.button = b
				return true, b
			}
			return false, -1
		}
		return p.view.HandleEvent(ev), -1
	}
	return false, -1
}

func (p *preview) hints() []window.Hint {
	return []window.Hint{
		{Keys: "↑↓ PgUp PgDn", Text: window.NewLabels(p.lang).T(window.LabelHintScroll)},
		{Keys: "Enter", Text: p.buttons.text(p.button)},
		{Keys: "Tab", Text: window.NewLabels(p.lang).T(window.LabelHintSwitch)},
	}
}

// shortPath writes a path in the home folder as ~/…, as people write it.
func shortPath(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return path
	}
	if rel, err := filepath.Rel(home, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return filepath.Join("~", rel)
	}
	return path
}
