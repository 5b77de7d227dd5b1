package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// scoutSpec is the agent the layout tests append.
var scoutSpec = AgentSpec{
	Name:        "scout",
	Title:       "Scout (container)",
	Icon:        "🔭",
	Description: "Looks around, in a box",
	Command:     "docker",
	Args:        []string{"exec", "-i", "scout-box", "mm", "--acp"},
	Workspace:   "~/agents/scout",
	Runtime:     Runtime{Type: "container", Container: "scout-box"},
}

// configFile writes content as config.yaml in a new folder and returns its path.
func newConfigFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func fileText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// appendAndCompare appends scout to a file holding input and compares the result with
// want, byte for byte.
func appendAndCompare(t *testing.T, input, want string) {
	t.Helper()
	path := newConfigFile(t, input)
	if err := AppendAgent(path, RenderAgent(scoutSpec)); err != nil {
		t.Fatalf("AppendAgent: %v", err)
	}
	got := fileText(t, path)
	if got != want {
		t.Fatalf("file after AppendAgent:\n%s\nwant:\n%s", got, want)
	}
	cfg, diags := Load(path)
	if diags.HasErrors() || cfg.Agents[len(cfg.Agents)-1].Title != scoutSpec.Title {
		t.Errorf("the result does not load with scout last: %q", diags)
	}
}

func TestAppendAgentKeepsEveryByte(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LANG", "C")
	inputs, err := filepath.Glob("testdata/append/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, input := range inputs {
		if strings.HasSuffix(input, ".want.yaml") {
			continue
		}
		n++
		name := strings.TrimSuffix(filepath.Base(input), ".yaml")
		t.Run(name, func(t *testing.T) {
			want := fileText(t, strings.TrimSuffix(input, ".yaml")+".want.yaml")
			appendAndCompare(t, fileText(t, input), want)
		})
	}
	if n < 7 {
		t.Fatalf("found %d layouts in testdata/append", n)
	}
}

func TestAppendAgentWindowsLineEndings(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	appendAndCompare(t,
		crlf(fileText(t, "testdata/append/indented.yaml")),
		crlf(fileText(t, "testdata/append/indented.want.yaml")))
}

func TestAppendAgentFileWithoutFinalNewline(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	appendAndCompare(t,
		"version: 1\nagents:\n  - name: alice\n    command: mm  # last line",
		"version: 1\nagents:\n  - name: alice\n    command: mm  # last line\n"+
			"  - name: scout\n    title: Scout (container)\n    icon: \"🔭\"\n    description: \"Looks around, in a box\"\n"+
			"    command: docker\n    args: [exec, -i, scout-box, mm, --acp]\n    workspace: ~/agents/scout\n"+
			"    runtime:\n      type: container\n      container: scout-box\n")
}

func TestAppendAgentAcceptsABareMapping(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	path := newConfigFile(t, "version: 1\nagents:\n  - name: alice\n    command: mm\n")
	if err := AppendAgent(path, []byte("  name: bob\n  command: mm\n  args: [x]\n")); err != nil {
		t.Fatal(err)
	}
	want := "version: 1\nagents:\n  - name: alice\n    command: mm\n  - name: bob\n    command: mm\n    args: [x]\n"
	if got := fileText(t, path); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// An agent the loader refuses is not written: the error is the loader's diagnostics.
func TestAppendAgentRefusesAnInvalidResult(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("LANG", "C")
	original := fileText(t, "testdata/append/indented.yaml")
	for _, tt := range []struct {
		name  string
		agent AgentSpec
		key   string
	}{
		{"invalid name", AgentSpec{Name: "Alice Smith", Command: "mm"}, "agents[1].name"},
		{"name taken", AgentSpec{Name: "alice", Command: "mm"}, "agents[1].name"},
		{"no command", AgentSpec{Name: "bob"}, "agents[1]"},
		{"container without its name", AgentSpec{Name: "bob", Command: "docker", Runtime: Runtime{Type: "container"}}, "agents[1].runtime"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := newConfigFile(t, original)
			before, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			err = AppendAgent(path, RenderAgent(tt.agent))
			var diags Diagnostics
			if !errors.As(err, &diags) || !diags.HasErrors() {
				t.Fatalf("AppendAgent = %v; want the loader's diagnostics", err)
			}
			// The very diagnostics the loader gives the file the append would have written.
			wouldBe := strings.Replace(original, "\n# Channels below.", indentLines(string(RenderAgent(tt.agent)), "  ")+"\n# Channels below.", 1)
			_, want := Parse(path, []byte(wouldBe))
			if !reflect.DeepEqual(diags, want) {
				t.Errorf("diagnostics:\n got %q\nwant %q", diags, want)
			}
			found := false
			for _, d := range diags {
				found = found || (!d.Warning && strings.HasPrefix(d.Key, tt.key))
			}
			if !found {
				t.Errorf("no error about %s in %q", tt.key, diags)
			}
			if got := fileText(t, path); got != original {
				t.Errorf("the file was changed:\n%s", got)
			}
			after, err := os.Stat(path)
			if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("the file was replaced")
			}
			if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
				t.Errorf("the folder holds %d files; want the configuration alone", len(entries))
			}
		})
	}
}

func indentLines(s, indent string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = indent + l
		}
	}
	return strings.Join(lines, "")
}

func TestAppendAgentRefusesWhatIsNotOneAgent(t *testing.T) {
	original := "version: 1\nagents: []\n"
	for _, item := range []string{"", "- name: a\n- name: b\n", "just text", "- [a, b]\n", "{{{"} {
		path := newConfigFile(t, original)
		if err := AppendAgent(path, []byte(item)); err == nil {
			t.Errorf("AppendAgent(%q) = nil; want an error", item)
		}
		if got := fileText(t, path); got != original {
			t.Errorf("AppendAgent(%q) changed the file", item)
		}
	}
}

func TestAppendAgentToABrokenFileGivesItsErrors(t *testing.T) {
	t.Setenv("LANG", "C")
	original := "version: 1\nagents: [\n"
	path := newConfigFile(t, original)
	err := AppendAgent(path, RenderAgent(scoutSpec))
	_, want := Parse(path, []byte(original))
	var diags Diagnostics
	if !errors.As(err, &diags) || !reflect.DeepEqual(diags, want) {
		t.Errorf("AppendAgent = %v; want the file's own diagnostics %q", err, want)
	}
}

func TestAppendAgentKeepsModeAndLink(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	target := newConfigFile(t, "version: 1\nagents: []\n")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := AppendAgent(link, RenderAgent(AgentSpec{Name: "bob", Command: "mm"})); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	st, err := os.Stat(target)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("mode after append = %v; want 0600", st.Mode())
	}
	if got := fileText(t, target); got != "version: 1\nagents:\n  - name: bob\n    command: mm\n" {
		t.Errorf("target after append:\n%s", got)
	}
}

func TestRenderAgentFull(t *testing.T) {
	got := string(RenderAgent(AgentSpec{
		Name:      "milo",
		Title:     "Milo",
		Command:   "sbx",
		Args:      []string{"exec", "-i", "milo-sbx", "mm", "--acp"},
		Workspace: "/Users/me/agents/milo",
		Runtime: Runtime{Type: "sbx", Sandbox: "milo-sbx", Lifecycle: Lifecycle{
			Folder: "/Users/me/agents/milo",
			Create: []string{"sbx", "env", "create", "--force"},
			Stop:   []string{"sbx", "stop", "milo-sbx"},
			Remove: []string{"sbx", "env", "rm", "--force"},
		}},
	}))
	want := `- name: milo
  title: Milo
  command: sbx
  args: [exec, -i, milo-sbx, mm, --acp]
  workspace: /Users/me/agents/milo
  runtime:
    type: sbx
    sandbox: milo-sbx
    lifecycle:
      folder: /Users/me/agents/milo
      create: [sbx, env, create, --force]
      stop: [sbx, stop, milo-sbx]
      remove: [sbx, env, rm, --force]
`
	if got != want {
		t.Errorf("RenderAgent:\n%s\nwant:\n%s", got, want)
	}
	if local := string(RenderAgent(AgentSpec{Name: "a", Command: "mm", Runtime: Runtime{Type: "local", Lifecycle: Lifecycle{Folder: "x"}}})); local != "- name: a\n  command: mm\n" {
		t.Errorf("a local agent renders as:\n%s", local)
	}
}

// Whatever the wizard's fields hold, YAML reads back exactly that.
func TestRenderAgentQuotesWhatMustBe(t *testing.T) {
	values := []string{
		"plain", "yes", "No", "on", "null", "~", "true", "1", "1.5", "0x1F", "1e3", ".inf", "-1",
		"-i", "--acp", "-", "- x", "a: b", "a:b", "#x", "a #b", "a, b", "[x]", "{x}", "*alias", "&anchor",
		"!tag", "|", ">", "'q'", `"q"`, "%x", "@x", "`x`", " lead", "trail ", "two  spaces", "a\nb",
		"tab\there", "\x1b[31m", "back\\slash", "🤖", "👩‍💻", "Émile", "\u2028", "\xff\xfe", "", "?", "? x",
		"a=b", "(x)", "~/agents/x", "C:\\x", "2024-01-02", "12:30",
	}
	type readBack struct {
		Title       string   `yaml:"title"`
		Description string   `yaml:"description"`
		Args        []string `yaml:"args"`
	}
	var back []readBack
	text := RenderAgent(AgentSpec{Name: "n", Command: "c", Args: values})
	if err := yaml.Unmarshal(text, &back); err != nil || len(back) != 1 || len(back[0].Args) != len(values) {
		t.Fatalf("rendered arguments do not read back (%v):\n%s", err, text)
	}
	for i, a := range back[0].Args {
		if want := strings.ToValidUTF8(values[i], "\uFFFD"); a != want {
			t.Errorf("argument %q read back as %q", values[i], a)
		}
	}
	for _, v := range values {
		back = nil
		text := RenderAgent(AgentSpec{Name: "n", Title: v, Description: v, Command: "c"})
		if err := yaml.Unmarshal(text, &back); err != nil || len(back) != 1 {
			t.Fatalf("%q: rendered YAML does not read back (%v):\n%s", v, err, text)
		}
		if want := strings.ToValidUTF8(v, "\uFFFD"); back[0].Title != want || back[0].Description != want {
			t.Errorf("%q read back as %q and %q", v, back[0].Title, back[0].Description)
		}
	}
}

// FuzzYAMLScalar checks that any text is written so that YAML reads it back, in block and
// in flow context.
func FuzzYAMLScalar(f *testing.F) {
	for _, s := range []string{"plain", "yes", "a: b", "#x", "-1", "- x", "a\nb", "\x1b", "🤖", " x", "[x]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.ToValidUTF8(s, "\uFFFD")
		q := yamlScalar(s)
		var block map[string]string
		if err := yaml.Unmarshal([]byte("k: "+q+"\n"), &block); err != nil || block["k"] != s {
			t.Fatalf("%q written %s reads back in block context as %q (%v)", s, q, block["k"], err)
		}
		var flow map[string][]string
		if err := yaml.Unmarshal([]byte("k: ["+q+", z]\n"), &flow); err != nil || len(flow["k"]) != 2 || flow["k"][0] != s {
			t.Fatalf("%q written %s reads back in flow context as %q (%v)", s, q, flow["k"], err)
		}
	})
}

// FuzzInsertAgent feeds arbitrary files to the insertion: it never panics, and when the
// file and the result both load, the new agent is the last one and every byte of the file
// is still there around it.
func FuzzInsertAgent(f *testing.F) {
	inputs, _ := filepath.Glob("testdata/append/*.yaml")
	for _, in := range inputs {
		if data, err := os.ReadFile(in); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("version: 1\nagents:\n- {name: a, command: b}\n---\nx: 1\n"))
	block := string(RenderAgent(AgentSpec{Name: "zzz", Command: "mm"}))
	_, item, err := agentItem([]byte(block))
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "config.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := insertAgent(data, block, item)
		if err != nil {
			return
		}
		before, diags := Parse(path, data)
		if diags.HasErrors() {
			return
		}
		after, diags := Parse(path, out)
		if diags.HasErrors() {
			return
		}
		if len(after.Agents) != len(before.Agents)+1 || after.Agents[len(after.Agents)-1].Name != "zzz" {
			t.Fatalf("agents after insertion: %d, last %q\n%s", len(after.Agents), after.Agents[len(after.Agents)-1].Name, out)
		}
		if !strings.Contains(string(out), "zzz") {
			t.Fatal("the agent is not in the result")
		}
	})
}
