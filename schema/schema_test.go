package schema

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestValidFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d valid files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := ValidateConfig(data); err != nil {
				t.Fatalf("valid file refused:\n%v", err)
			}
		})
	}
}

// TestInvalidFiles checks that each invalid file fails, and that every line of the
// .expected file beside it appears in the error.
func TestInvalidFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/invalid/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d invalid files", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			expected, err := os.ReadFile(strings.TrimSuffix(f, ".yaml") + ".expected")
			if err != nil {
				t.Fatalf("every invalid file needs its .expected file: %v", err)
			}
			verr := ValidateConfig(data)
			if verr == nil {
				t.Fatal("invalid file accepted")
			}
			wants := strings.Split(strings.TrimSpace(string(expected)), "\n")
			if len(wants) == 0 || wants[0] == "" {
				t.Fatal("empty .expected file")
			}
			for _, want := range wants {
				if !strings.Contains(verr.Error(), want) {
					t.Errorf("error does not contain %q:\n%v", want, verr)
				}
			}
		})
	}
}

// TestInvalidFilesAreValidationErrors checks the error's type: YAML that cannot be read
// gives a plain error, a readable document that breaks the schema a *ValidationError.
func TestInvalidFilesAreValidationErrors(t *testing.T) {
	unreadable := map[string]bool{
		"syntax-error.yaml": true, "duplicate-key.yaml": true, "second-document.yaml": true,
		"merge-key.yaml": true, "alias-bomb.yaml": true,
	}
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var ve *jsonschema.ValidationError
		isValidation := errors.As(ValidateConfig(data), &ve)
		if want := !unreadable[filepath.Base(f)]; isValidation != want {
			t.Errorf("%s: ValidationError = %v, want %v", f, isValidation, want)
		}
	}
}

func TestValidationErrorListsEveryViolation(t *testing.T) {
	doc := "version: 2\nagents:\n  - name: Alice Smith\n    comand: mm\nui: {theme: blue}\n"
	err := ValidateConfig([]byte(doc))
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %T %v, want *jsonschema.ValidationError", err, err)
	}
	for _, want := range []string{
		"at '/version': value must be 1",
		"at '/agents/0/name': 'Alice Smith' does not match pattern",
		"at '/agents/0': additional properties 'comand' not allowed",
		"at '/agents/0': missing property 'command'",
		"at '/ui/theme': value must be one of",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if !strings.HasPrefix(err.Error(), "jsonschema validation failed with '"+ConfigSchemaURL+"#'") {
		t.Errorf("error does not start with the schema's URL:\n%v", err)
	}
}

func TestConfigSchemaIsACopy(t *testing.T) {
	a := ConfigSchema()
	a[0] = 'X'
	b := ConfigSchema()
	if b[0] != '{' {
		t.Fatal("ConfigSchema returned the embedded slice itself")
	}
}

func TestConfigSchemaDocument(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(ConfigSchema(), &doc); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	if doc["$id"] != ConfigSchemaURL {
		t.Errorf("$id = %v, want %s", doc["$id"], ConfigSchemaURL)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v, want draft 2020-12", doc["$schema"])
	}
	// additionalProperties: false on every object of the schema.
	var walk func(path string, v any)
	walk = func(path string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		if m["type"] == "object" {
			_, hasAP := m["additionalProperties"]
			if !hasAP {
				t.Errorf("%s: object without additionalProperties", path)
			}
		}
		for k, sub := range m {
			switch s := sub.(type) {
			case map[string]any:
				walk(path+"/"+k, s)
			case []any:
				for _, item := range s {
					walk(path+"/"+k+"[]", item)
				}
			}
		}
	}
	walk("#", doc)
}

func TestDefaultsInSchema(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			Properties map[string]struct {
				Default any `json:"default"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(ConfigSchema(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		def, key string
		want     any
	}{
		{"ui", "theme", "system"},
		{"ui", "language", "en"},
		{"limits", "maxRunningAgents", float64(2)},
		{"limits", "stopIdleAgentsAfter", "10m"},
	} {
		if got := doc.Defs[c.def].Properties[c.key].Default; got != c.want {
			t.Errorf("%s.%s default = %v, want %v", c.def, c.key, got, c.want)
		}
	}
}

func TestYAMLScalars(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want error // nil: valid
	}{
		{"version: 0x1\nagents: []\n", nil},
		{"version: +1\nagents: []\n", nil},
		{"version: 1_0\nagents: []\n", errors.New("value must be 1")},
		{"version: 100000000000000000000000000001\nagents: []\n", errors.New("value must be 1")},
		{"version: .inf\nagents: []\n", errors.New("got string, want integer")},
		{"version: 1\nagents: []\nui: {theme: 2024-01-01}\n", errors.New("value must be one of")},
		{"version: 1\nagents: [{name: a, command: mm, title: 2024-01-01}]\n", nil},
		{"version: 1\nagents: [{name: a, command: mm, title: true}]\n", errors.New("got boolean, want string")},
		{"version: 1\nagents: [{name: a, command: mm, title: ~}]\n", errors.New("got null, want string")},
	} {
		err := ValidateConfig([]byte(c.doc))
		switch {
		case c.want == nil && err != nil:
			t.Errorf("%q: unexpected error %v", c.doc, err)
		case c.want != nil && (err == nil || !strings.Contains(err.Error(), c.want.Error())):
			t.Errorf("%q: got %v, want an error containing %q", c.doc, err, c.want)
		}
	}
}

func TestAliasCycleDoesNotHang(t *testing.T) {
	err := ValidateConfig([]byte("version: 1\nagents: &a [*a]\n"))
	if err == nil {
		t.Fatal("a recursive alias was accepted")
	}
}
