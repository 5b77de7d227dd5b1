package wizard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// toWhere moves the focus from the first field to "where it runs".
func (h *harness) toWhere() {
	for range 5 {
		h.press(tcell.KeyTab)
	}
}

func TestFormGolden(t *testing.T) {
	for _, tt := range []struct {
		lang                          string
		local, container, sandbox, rm string
	}{
		{"en", "◂ On this computer ▸", "Container", "Sandbox", "Command that removes the sandbox"},
		{"fr", "◂ Sur cet ordinateur ▸", "Conteneur", "Sandbox", "Commande qui supprime la sandbox"},
	} {
		t.Run(tt.lang, func(t *testing.T) {
			h := newHarness(t, "original.yaml", i18n.English)
			h.open(tt.lang)
			s := h.waitText(tt.local)
			if strings.Contains(s, tt.container) || strings.Contains(s, tt.sandbox) || strings.Contains(s, tt.rm) {
				t.Errorf("on this computer, the form shows a runtime's fields:\n%s", s)
			}
			golden(t, "form-local."+tt.lang+".txt", s)
			h.toWhere()
			h.press(tcell.KeyRight)
			s = h.waitText(tt.container + " ")
			if strings.Contains(s, tt.sandbox) || strings.Contains(s, tt.rm) {
				t.Errorf("in a container, the form shows the sandbox's fields:\n%s", s)
			}
			h.press(tcell.KeyRight)
			s = h.waitText(tt.rm)
			if strings.Contains(s, tt.container+" ") {
				t.Errorf("in a sandbox, the form shows the container's field:\n%s", s)
			}
			golden(t, "form-sbx."+tt.lang+".txt", s)
		})
	}
}

// TestAddAgentWithTheKeys fills the form, checks the preview, adds the agent and compares
// the file, byte for byte, with the expected one — which is also what the config
// package's wizard writes for the same input.
func TestAddAgentWithTheKeys(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	h.open("en")
	h.fill("scout")
	h.fill("Scout (explorer)")
	h.fill("🔭")
	h.fill("Looks around")
	h.fill("/work/agents/scout")
	h.press(tcell.KeyRight) // in a Docker container
	h.press(tcell.KeyTab)
	h.fill("scout-box")
	h.fill("mm")
	h.typeText(`--acp --name "my scout"`)
	h.press(tcell.KeyEnter)
	s := h.waitText("These lines will be added to")
	for _, line := range []string{
		"  - name: scout", "    title: Scout (explorer)", `    icon: "🔭"`, "    description: Looks around",
		"    command: docker", "    args: [exec, -i, -w, /work/agents/scout, scout-box, mm, --acp,", // wrapped
		"    workspace: /work/agents/scout", "    runtime:", "      type: container", "      container: scout-box",
		`warning: line 27 — agents[2].command: "docker"`,
	} {
		if !strings.Contains(s, line) {
			t.Errorf("the preview does not show %q:\n%s", line, s)
		}
	}
	golden(t, "preview.en.txt", s)
	if got := h.fileText(); got != readFile(t, "testdata/original.yaml") {
		t.Fatalf("the preview wrote the file:\n%s", got)
	}

	h.press(tcell.KeyEnter) // Add
	// The agent's folder, absolute for docker exec -w, is not created on this machine: the
	// agent is added without it (creating it is workspace_test.go's).
	h.waitText("Add the agent without it")
	h.press(tcell.KeyDown)
	h.press(tcell.KeyEnter)
	if name := h.waitAdded(); name != "scout" {
		t.Errorf("onAdded(%q)", name)
	}
	got := h.fileText()
	golden(t, "added.want.yaml", got)

	// The same input through the config package alone gives the same bytes.
	other := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(other, []byte(readFile(t, "testdata/original.yaml")), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := config.PreviewWizard(other, config.WizardInput{
		Name: "scout", Title: "Scout (explorer)", Icon: "🔭", Description: "Looks around", Folder: "/work/agents/scout",
		Where: config.WhereContainer, Container: "scout-box", Program: "mm", Arguments: `--acp --name "my scout"`})
	if err == nil {
		err = config.ApplyWizard(other, p)
	}
	if err != nil || readFile(t, other) != got {
		t.Errorf("the dialog wrote something else than the config package's wizard (%v):\n%s", err, readFile(t, other))
	}

	s = h.waitText("Agent scout added")
	if strings.Contains(s, " Add an agent ") {
		t.Errorf("the dialog is still open:\n%s", s)
	}
	if _, _, _, open := h.state(); open {
		t.Error("the dialog is still open")
	}
}

// TestInvalidInputShowsTheLoadersMessage: what the loader refuses is shown with its own
// message (in the file's language), the focus goes to the field, and nothing is written.
func TestInvalidInputShowsTheLoadersMessage(t *testing.T) {
	for _, tt := range []struct {
		name     string
		original string
		lang     string
		fields   []string // typed in the fields from the first, with Tab between them
		field    fieldID
		want     string // the start of the first message
	}{
		{"bad name en", "original.yaml", "en", []string{"Alice Smith", "", "", "", "", "", "mm"}, fName,
			`line 23 — agents[2].name: "Alice Smith" is not a valid name`},
		{"bad name fr", "original.fr.yaml", "fr", []string{"Alice Smith", "", "", "", "", "", "mm"}, fName,
			`ligne 23 — agents[2].name : « Alice Smith » n'est pas un nom valide`},
		{"name taken", "original.yaml", "en", []string{"bob", "", "", "", "", "", "mm"}, fName,
			`line 23 — agents[2].name: "bob" is already the name of agents[1]`},
		{"no program fr", "original.fr.yaml", "fr", []string{"carol", "", "", "", "", "", "", "--acp"}, fProgram,
			`ligne 23 — agents[2] : il manque la clé « command »`},
		{"unterminated quote en", "original.yaml", "en", []string{"carol", "", "", "", "", "", "mm", `--config "my file`}, fArguments,
			`arguments: the quote " opened at character 10 is not closed`},
		{"unterminated quote fr", "original.yaml", "fr", []string{"carol", "", "", "", "", "", "mm", `--config "my file`}, fArguments,
			`arguments : le guillemet " ouvert au caractère 10 n'est pas fermé`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.original, i18n.English)
			h.open(tt.lang)
			original := h.fileText()
			for i, f := range tt.fields {
				if i > 0 {
					h.press(tcell.KeyTab)
				}
				h.typeText(f)
			}
			h.press(tcell.KeyEnter)
			h.waitText(tt.want[:strings.Index(tt.want, ":")])
			problems, field, onPreview, open := h.state()
			if len(problems) == 0 || !strings.HasPrefix(problems[0], tt.want) {
				t.Fatalf("problems %q; want one starting with %q", problems, tt.want)
			}
			if field != tt.field || onPreview || !open {
				t.Errorf("focus on field %d, preview %v, open %v; want field %d on the open form", field, onPreview, open, tt.field)
			}
			// Exactly the messages the config package gives for the same input.
			var in config.WizardInput
			h.onUI(func() { in = h.wiz.form.input() })
			_, err := config.PreviewWizard(h.path, in)
			h.onUI(func() {
				if want := h.wiz.messages(err, tReadFailed); strings.Join(want, "\n") != strings.Join(problems, "\n") {
					t.Errorf("the dialog shows %q; the config package says %q", problems, want)
				}
			})
			if h.fileText() != original {
				t.Error("the file was written")
			}
			select {
			case name := <-h.added:
				t.Errorf("onAdded(%q) after a refusal", name)
			default:
			}
		})
	}
}

func TestEscCancels(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	h.open("en")
	h.typeText("carol")
	h.waitText("carol")
	h.press(tcell.KeyEscape)
	h.waitScreen("the dialog closed", func(s string) bool { return !strings.Contains(s, " Add an agent ") })
	if _, _, _, open := h.state(); open {
		t.Error("the dialog is still open")
	}
	if h.fileText() != readFile(t, "testdata/original.yaml") {
		t.Error("the file was written")
	}
	select {
	case name := <-h.added:
		t.Errorf("onAdded(%q) after Esc", name)
	default:
	}
}

// Back returns to the form with what was typed; a preview that no longer fits the file
// (someone took the name meanwhile) is refused on Add with the loader's message, and the
// file keeps the other change.
func TestBackAndRefusalOnAdd(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	h.open("en")
	h.fill("carol")
	for range 5 {
		h.press(tcell.KeyTab)
	}
	h.typeText("mm")
	h.press(tcell.KeyEnter)
	h.waitText("These lines will be added to")
	h.typeText("b") // Back
	s := h.waitText("◂ On this computer ▸")
	if !strings.Contains(s, "carol") || !strings.Contains(s, "mm") {
		t.Errorf("the form lost what was typed:\n%s", s)
	}
	h.press(tcell.KeyEnter)
	h.waitText("These lines will be added to")

	changed := strings.Replace(h.fileText(), "  - name: bob", "  - name: carol", 1)
	if err := os.WriteFile(h.path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	h.press(tcell.KeyEnter) // Add
	h.waitText(`agents[2].name: "carol" is already the name`)
	problems, _, onPreview, open := h.state()
	if !onPreview || !open || len(problems) != 1 || !strings.HasPrefix(problems[0], "line 23 — agents[2].name:") {
		t.Errorf("preview %v, open %v, problems %q", onPreview, open, problems)
	}
	if h.fileText() != changed {
		t.Error("the file was written")
	}
	h.typeText("c") // no button has C: nothing happens
	h.press(tcell.KeyTab)
	h.press(tcell.KeyTab)
	h.press(tcell.KeyEnter) // Cancel
	h.waitScreen("the dialog closed", func(s string) bool { return !strings.Contains(s, " Add an agent ") })
}

// The file disappears between the preview and the write: the dialog says so in its own
// words, in the dialog's language.
func TestWriteFailureInTheDialogsLanguage(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	h.open("fr")
	h.fill("carol")
	for range 5 {
		h.press(tcell.KeyTab)
	}
	h.typeText("mm")
	h.press(tcell.KeyEnter)
	h.waitText("Ces lignes seront ajoutées à")
	if err := os.Remove(h.path); err != nil {
		t.Fatal(err)
	}
	h.press(tcell.KeyEnter)
	h.waitText("Le fichier de configuration n'a pas pu être écrit : il")
	problems, _, _, _ := h.state()
	if len(problems) != 1 || problems[0] != "Le fichier de configuration n'a pas pu être écrit : il n'existe plus." {
		t.Errorf("problems %q", problems)
	}
}

func TestMouse(t *testing.T) {
	h := newHarness(t, "original.yaml", i18n.English)
	h.open("en")
	s := h.waitText("◂ On this computer ▸")
	x, y := position(s, "◂ On this computer ▸")
	h.screen.InjectMouse(x, y, tcell.Button1, tcell.ModNone)
	h.screen.InjectMouse(x, y, tcell.ButtonNone, tcell.ModNone)
	s = h.waitText("◂ In a Docker container ▸")
	x, y = position(s, "[ Cancel ]")
	h.screen.InjectMouse(x+2, y, tcell.Button1, tcell.ModNone)
	h.screen.InjectMouse(x+2, y, tcell.ButtonNone, tcell.ModNone)
	h.waitScreen("the dialog closed", func(s string) bool { return !strings.Contains(s, " Add an agent ") })
}

// position returns the cell of text's first character on the screen s.
func position(s, text string) (x, y int) {
	for y, row := range strings.Split(s, "\n") {
		if i := strings.Index(row, text); i >= 0 {
			return window.TextWidth(row[:i]), y
		}
	}
	return -1, -1
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// On a short screen the form scrolls to keep the focused field in view, and the preview
// scrolls with the keys.
func TestShortScreenScrolls(t *testing.T) {
	h := newHarnessSized(t, "original.yaml", i18n.English, 80, 14)
	h.open("en")
	h.fill("milo")
	for range 4 {
		h.press(tcell.KeyTab)
	}
	h.press(tcell.KeyRight)
	h.press(tcell.KeyRight) // sbx
	h.press(tcell.KeyTab)
	h.fill("milo-sbx")
	h.fill("mm")
	h.fill("--acp")
	h.fill("")
	h.fill("/Users/me/agents/milo")
	h.fill("sbx env create --force")
	h.fill("sbx stop milo-sbx")
	h.typeText("sbx env rm --force")
	s := h.waitText("sbx env rm --force")
	if strings.Contains(s, "Name used with @") || !strings.Contains(s, "Command that removes the sandbox") || !strings.Contains(s, "↑") {
		t.Errorf("the form did not scroll to the focused field, with a mark:\n%s", s)
	}
	h.press(tcell.KeyBacktab)
	for range 12 {
		h.press(tcell.KeyUp)
	}
	s = h.waitText("Name used with @")
	if strings.Contains(s, "Command that removes the sandbox") || !strings.Contains(s, "↓") {
		t.Errorf("the form did not scroll back up, with a mark:\n%s", s)
	}

	h.press(tcell.KeyEnter)
	s = h.waitText("These lines will be added to:")
	if strings.Contains(s, "remove: [sbx, env, rm, --force]") {
		t.Fatalf("the preview fits a short screen; the test needs it not to:\n%s", s)
	}
	h.press(tcell.KeyEnd)
	s = h.waitText("remove: [sbx, env, rm, --force]")
	if strings.Contains(s, "These lines will be added to:") {
		t.Errorf("End did not scroll the preview:\n%s", s)
	}
	h.press(tcell.KeyHome)
	h.waitText("These lines will be added to:")
	h.press(tcell.KeyEnter)
	select {
	case <-h.added:
	case <-timeout():
		t.Fatalf("onAdded was not called; the screen shows:\n%s", h.screen.current())
	}
	if got := h.fileText(); !strings.Contains(got, "      lifecycle:\n        folder: /Users/me/agents/milo\n        create: [sbx, env, create, --force]\n") {
		t.Errorf("the file:\n%s", got)
	}
}

// The smallest screen Sidekicks draws in still shows a usable form and preview.
func TestSmallestScreen(t *testing.T) {
	h := newHarnessSized(t, "original.yaml", i18n.French, window.MinScreenWidth, window.MinScreenHeight)
	h.open("fr")
	h.fill("carol")
	for range 5 {
		h.press(tcell.KeyTab)
	}
	h.typeText("mm")
	s := h.waitText("mm")
	if !strings.Contains(s, "Progr") {
		t.Errorf("the focused field is not in view:\n%s", s)
	}
	h.press(tcell.KeyEnter)
	h.waitText("[ Ajouter ]")
	h.press(tcell.KeyEnter)
	select {
	case name := <-h.added:
		if name != "carol" {
			t.Errorf("onAdded(%q)", name)
		}
	case <-timeout():
		t.Fatalf("onAdded was not called; the screen shows:\n%s", h.screen.current())
	}
}
