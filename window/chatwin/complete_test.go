package chatwin

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/gdamore/tcell/v2"
)

// listRows returns the rows of the completion list on screen (in the menu's colours).
func (wd *world) listRows() []string {
	wd.t.Helper()
	lr := onUI(wd.harness, func() rect { return wd.w.listRect })
	if lr.h == 0 {
		return nil
	}
	rows := wd.rows()
	var out []string
	for i := 0; i < lr.h; i++ {
		out = append(out, strings.TrimSpace(strings.Trim(rows[2+lr.y+i], "║")))
	}
	return out
}

func (wd *world) highlighted() string {
	return onUI(wd.harness, func() string {
		if !wd.w.list.ready() {
			return ""
		}
		return wd.w.list.current().name
	})
}

func (wd *world) announceCommands() {
	wd.t.Helper()
	wd.send("commands")
	wd.turnEnded()
}

func TestCommandList(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.announceCommands()
	wd.typeText("/")
	got := wd.listRows()
	want := []string{"/echo     Repeat the text <text>", "/Explain  Explain the code", "/slow     Take a long time"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("list %q, want %q\n%s", got, want, wd.text())
	}
	wd.golden("commands")
	// A click in the conversation gives it the keys: Up moves its cursor, not the list's.
	wd.click("commands", tcell.ModNone)
	wd.press(tcell.KeyUp)
	if h := wd.highlighted(); h != "/echo" || wd.listRows() != nil {
		t.Fatalf("with the conversation in front the list is %q, highlighted %q", wd.listRows(), h)
	}
	if got := wd.selectedRows(); len(got) != 1 || got[0] != "You" {
		t.Fatalf("Up in the conversation: cursor bar on %q", got)
	}
	wd.press(tcell.KeyTab)
	if got := wd.listRows(); len(got) != 3 {
		t.Fatalf("back in the input, the list is %q", got)
	}
	if !strings.Contains(wd.status(), "Tab Complete") {
		t.Errorf("status bar with the list open: %q", wd.status())
	}
	// The prefix filters, ignoring case.
	wd.typeText("E")
	if got := wd.listRows(); len(got) != 2 || !strings.HasPrefix(got[0], "/echo") || !strings.HasPrefix(got[1], "/Explain") {
		t.Fatalf("/E lists %q", got)
	}
	// Down moves, Up comes back; PgDn and PgUp go to the ends of this short list.
	wd.press(tcell.KeyDown)
	if h := wd.highlighted(); h != "/Explain" {
		t.Fatalf("Down: %q highlighted", h)
	}
	wd.press(tcell.KeyUp)
	wd.press(tcell.KeyPgDn)
	if h := wd.highlighted(); h != "/Explain" {
		t.Fatalf("PgDn: %q highlighted", h)
	}
	wd.press(tcell.KeyPgUp)
	if h := wd.highlighted(); h != "/echo" {
		t.Fatalf("PgUp: %q highlighted", h)
	}
	// Tab completes a command that takes input with a space, and the list closes.
	wd.press(tcell.KeyTab)
	if text, cur := wd.input(); text != "/echo " || cur != 6 {
		t.Fatalf("Tab completed to %q (cursor %d)", text, cur)
	}
	if got := wd.listRows(); got != nil {
		t.Fatalf("the list stayed open: %q", got)
	}
	wd.typeText("hi there")
	wd.press(tcell.KeyEnter)
	if got := wd.started(); got != "/echo hi there" {
		t.Fatalf("sent %q", got)
	}
	wd.turnEnded()

	// Enter completes a word that is not a command yet, without a space for a command
	// without input; on a complete command it sends.
	wd.typeText("/sl")
	wd.press(tcell.KeyEnter)
	if text, _ := wd.input(); text != "/slow" {
		t.Fatalf("Enter completed to %q", text)
	}
	if n := wd.agent.promptCount(); n != 2 {
		t.Fatalf("Enter on an incomplete word sent it (%d prompts)", n)
	}
	wd.press(tcell.KeyEnter)
	if got := wd.started(); got != "/slow" {
		t.Fatalf("Enter on a complete command sent %q", got)
	}
	wd.press(tcell.KeyEsc) // cancel /slow
	wd.turnEnded()

	// Esc closes the list until the text changes.
	wd.typeText("/e")
	wd.press(tcell.KeyEsc)
	if got := wd.listRows(); got != nil {
		t.Fatalf("Esc left the list open: %q", got)
	}
	wd.press(tcell.KeyTab) // the list is closed: Tab moves the focus
	if onUI(wd.harness, func() area { return wd.w.focus }) != areaConversation {
		t.Fatal("Tab with the list closed did not move the focus")
	}
	wd.press(tcell.KeyTab)
	wd.typeText("x")
	wd.press(tcell.KeyBackspace2)
	if got := wd.listRows(); len(got) != 2 {
		t.Fatalf("the list did not come back once the text changed: %q", got)
	}
	// A / that is not the first character is a character.
	wd.ctrl('a')
	wd.ctrl('k')
	wd.typeText("a /")
	if got := wd.listRows(); got != nil {
		t.Fatalf("a / after the start opened the list: %q", got)
	}
	// The list follows the commands the agent announces.
	wd.ctrl('a')
	wd.ctrl('k')
	wd.typeText("/")
	wd.do(func() {
		wd.w.calls.Do(func() {
			wd.agent.handler().Update(sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
				AvailableCommands: []sdk.AvailableCommand{{Name: "new", Description: "A new one"}},
			}})
		})
	})
	wd.settled(wd.w, "new commands", func() bool { return len(wd.w.list.items) == 1 })
	if got := wd.listRows(); len(got) != 1 || got[0] != "/new  A new one" {
		t.Fatalf("list after an update: %q", got)
	}
}

func TestSlashWithoutCommandsIsACharacter(t *testing.T) {
	t.Parallel()
	wd := newWorld(t)
	wd.typeText("/e")
	if got := wd.listRows(); got != nil {
		t.Fatalf("a list with no command: %q", got)
	}
	wd.press(tcell.KeyTab)
	if onUI(wd.harness, func() area { return wd.w.focus }) != areaConversation {
		t.Fatal("Tab did not keep its meaning")
	}
	wd.press(tcell.KeyTab)
	wd.press(tcell.KeyEnter)
	if got := wd.started(); got != "/e" {
		t.Fatalf("sent %q", got)
	}
}

func TestFileMentions(t *testing.T) {
	t.Parallel()
	wd := newWorld(t, withFiles(map[string]string{
		"README.md":          "# Read me\n",
		"docs/readme.txt":    "the docs\n",
		"docs/guide.md":      "guide\n",
		"src/main.go":        "package main\n",
		"src/readme_test.go": "package main\n",
		".git/config":        "[core]\n",
		"has space.txt":      "x",
	}))
	wd.typeText("explain @")
	if n := wd.walked(); n != 5 {
		t.Fatalf("the walk found %d files, want 5 (.git and a name with a space left out)", n)
	}
	got := wd.listRows()
	want := []string{"README.md", "docs/guide.md", "docs/readme.txt", "src/main.go", "src/readme_test.go"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("list %q, want %q", got, want)
	}
	// Names that start with the text first, then paths that contain it.
	wd.typeText("read")
	got = wd.listRows()
	want = []string{"README.md", "docs/readme.txt", "src/readme_test.go"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("@read lists %q, want %q", got, want)
	}
	wd.typeText("me_")
	if got := wd.listRows(); len(got) != 1 || got[0] != "src/readme_test.go" {
		t.Fatalf("@readme_ lists %q", got)
	}
	for range len("readme_") {
		wd.injectKey(tcell.KeyBackspace2, 0, tcell.ModNone)
	}
	wd.typeText("gui")
	if got := wd.listRows(); len(got) != 1 || got[0] != "docs/guide.md" {
		t.Fatalf("@gui lists %q", got)
	}
	// Tab completes with a space.
	wd.press(tcell.KeyTab)
	if text, _ := wd.input(); text != "explain @docs/guide.md " {
		t.Fatalf("completed to %q", text)
	}
	wd.typeText("please")
	wd.press(tcell.KeyEnter)
	wd.started()
	wd.turnEnded()
	// The conversation keeps the text as typed; the agent gets the file as a resource.
	if !strings.Contains(wd.text(), "explain @docs/guide.md please") {
		t.Errorf("the message is not shown as typed:\n%s", wd.text())
	}
	uri := (&dirFiles{root: wd.agent.dir}).URI("docs/guide.md")
	wantJSON := `[{"text":"explain ","type":"text"},{"resource":{"mimeType":"text/markdown","text":"guide\n","uri":"` + uri +
		`"},"type":"resource"},{"text":" please","type":"text"}]`
	if got := wd.agent.promptJSON(t, 0); got != wantJSON {
		t.Errorf("prompt blocks\n got %s\nwant %s", got, wantJSON)
	}

	// Enter on a word that already names a listed file sends; the walk is made again at
	// each opening, so a file created since is listed.
	writeFile(t, wd.agent.dir, "new.txt", "new\n")
	wd.typeText("see @new")
	if n := wd.walked(); n != 6 {
		t.Fatalf("the second walk found %d files", n)
	}
	wd.press(tcell.KeyEnter)
	if text, _ := wd.input(); text != "see @new.txt " {
		t.Fatalf("Enter completed to %q", text)
	}
	wd.press(tcell.KeyBackspace2) // "see @new.txt": the list is back on a complete word
	if got := wd.listRows(); len(got) != 1 {
		t.Fatalf("list %q", got)
	}
	wd.press(tcell.KeyEnter)
	if got := wd.started(); got != "see " {
		t.Fatalf("sent %q first, want the text before the file", got)
	}
	wd.turnEnded()
	// An address is not a mention.
	wd.typeText("me@host")
	if got := wd.listRows(); got != nil {
		t.Fatalf("an address opened the list: %q", got)
	}
}

func TestFileListLimits(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := 0; i < 250; i++ {
		files["f/file"+itoa(1000+i)+".txt"] = "x"
	}
	wd := newWorld(t, withFiles(files), withSize(60, 24))
	wd.typeText("@")
	wd.walked()
	if n := onUI(wd.harness, func() int { return len(wd.w.list.items) }); n != maxShown {
		t.Fatalf("%d files listed, want %d", n, maxShown)
	}
	if got := wd.listRows(); len(got) != maxListRows {
		t.Fatalf("%d rows shown, want %d", len(got), maxListRows)
	}
	for i := 0; i < 30; i++ {
		wd.injectKey(tcell.KeyPgDn, 0, tcell.ModNone)
	}
	wd.sync()
	if h := wd.highlighted(); h != "f/file1199.txt" {
		t.Fatalf("PgDn to the end: %q highlighted", h)
	}
	if got := wd.listRows(); got[len(got)-1] != "f/file1199.txt" {
		t.Fatalf("the highlighted entry is not in view: %q", got)
	}
}

func TestWalkBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := 0; i < 30; i++ {
		writeFile(t, dir, "d"+itoa(i%3)+"/f"+itoa(i), "")
	}
	writeFile(t, dir, "top", "")
	walk := WalkWorkspace(localWorkspace(dir))
	files, cut, err := walk(t.Context(), nil, 10)
	if err != nil || len(files) != 10 || !cut {
		t.Fatalf("walk: %d files, %v", len(files), err)
	}
	if files[0] != "top" {
		t.Errorf("the walk is not breadth first: %q", files)
	}
	// Names a mention cannot take, or that would write escape sequences, are left out.
	odd := t.TempDir()
	for _, name := range []string{"ok.txt", "a b.txt", "esc\x1b[31m.txt", "bidi\u202e.txt", "tab\t.txt"} {
		writeFile(t, odd, name, "")
	}
	if files, _, err := WalkWorkspace(localWorkspace(odd))(t.Context(), nil, 10); err != nil || strings.Join(files, ",") != "ok.txt" {
		t.Errorf("walk of odd names: %q, %v", files, err)
	}
	if _, _, err := WalkWorkspace(localWorkspace(dir+"/missing"))(t.Context(), nil, 10); err == nil {
		t.Error("walking a missing folder gave no error")
	}
}
