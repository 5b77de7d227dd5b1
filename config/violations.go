package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"gopkg.in/yaml.v3"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/schema"
)

// validate checks the document against the JSON Schema and turns each violation into a
// diagnostic placed on the tree.
func (l *loader) validate(data []byte) {
	err := schema.ValidateConfig(data)
	if err == nil {
		return
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		// parseTree and checkStructure read the document already; the schema package
		// reading it differently would be a bug, but the user still gets a message.
		l.errorAt(1, 0, "", catalogue.Text(l.lang, mNoSchemaCheck))
		return
	}
	var leaves []*jsonschema.ValidationError
	collectViolations(ve, &leaves)
	// A value of the wrong type makes every other complaint about it noise, and so does
	// anything about the value of a key that is not allowed at all.
	wrongType := map[string]bool{}
	notAllowed := map[string]bool{}
	for _, v := range leaves {
		switch v.ErrorKind.(type) {
		case *kind.Type:
			wrongType[strings.Join(v.InstanceLocation, "/")] = true
		case *kind.FalseSchema:
			notAllowed[strings.Join(v.InstanceLocation, "/")] = true
		}
	}
	seen := map[string]bool{}
	for _, v := range leaves {
		loc := strings.Join(v.InstanceLocation, "/")
		switch v.ErrorKind.(type) {
		case *kind.Type:
		case *kind.FalseSchema:
		default:
			if wrongType[loc] || underAny(notAllowed, v.InstanceLocation) {
				continue
			}
		}
		for _, d := range l.violation(v) {
			if id := fmt.Sprint(d.Line, d.Column, d.Message); !seen[id] {
				seen[id] = true
				l.diags = append(l.diags, d)
			}
		}
	}
}

// underAny reports whether location is one of the locations of set, or inside one.
func underAny(set map[string]bool, location []string) bool {
	if len(set) == 0 {
		return false
	}
	for i := 1; i <= len(location); i++ {
		if set[strings.Join(location[:i], "/")] {
			return true
		}
	}
	return false
}

// collectViolations gathers the violations worth a message: it walks through the
// grouping errors ($ref, allOf, if/then) and stops at an anyOf or oneOf, whose branches'
// failures would only confuse; the anyOf itself gets one message.
func collectViolations(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			collectViolations(c, out)
		}
	default:
		*out = append(*out, e)
	}
}

// shapeOf writes an instance location with its list indexes as "*", to compare it with
// a shape such as "agents/*/name".
func shapeOf(location []string) string {
	var b strings.Builder
	for i, seg := range location {
		if i > 0 {
			b.WriteByte('/')
		}
		if seg != "" && strings.Trim(seg, "0123456789") == "" {
			b.WriteByte('*')
		} else {
			b.WriteString(seg)
		}
	}
	return b.String()
}

// violation turns one schema violation into diagnostics (several for an unknown or a
// missing key when there are several).
func (l *loader) violation(v *jsonschema.ValidationError) []Diagnostic {
	lang := l.lang
	p := locate(l.root, v.InstanceLocation)
	shape := shapeOf(v.InstanceLocation)
	at := func(p place, text string) Diagnostic {
		return newDiagnostic(l.file, lang, p.line(), p.column(), p.path, text, false)
	}
	shown := shownValue(lang, p.value)

	// Keys whose every violation has one message that says what to write.
	switch shape {
	case "version":
		if _, text := stringValue(p.value); text {
			// version: "1" is the right version written as text.
			return []Diagnostic{at(p, catalogue.Text(lang, mVersionNotText))}
		}
		return []Diagnostic{at(p, catalogue.Text(lang, mBadVersion, shown))}
	case "limits/stopIdleAgentsAfter":
		return []Diagnostic{at(p, durationText(lang, shown))}
	}

	switch k := v.ErrorKind.(type) {
	case *kind.Type:
		return []Diagnostic{at(p, typeText(lang, shape, k.Want, k.Got, p.value))}
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		return []Diagnostic{at(p, catalogue.Text(lang, mNotAllowed, shown, list(lang, want)))}
	case *kind.Pattern:
		return []Diagnostic{at(p, patternText(lang, shape, shown))}
	case *kind.MinLength:
		return []Diagnostic{at(p, catalogue.Text(lang, mMustNotBeEmpty))}
	case *kind.MaxLength:
		return []Diagnostic{at(p, catalogue.Text(lang, mTooLong, shown, k.Got, k.Want))}
	case *kind.Minimum:
		want, _ := k.Want.Float64()
		return []Diagnostic{at(p, catalogue.Text(lang, mMinimum, want, printable(p.text())))}
	case *kind.MinItems:
		return []Diagnostic{at(p, catalogue.Text(lang, mEmptyList))}
	case *kind.UniqueItems:
		item := locate(l.root, append(slices.Clone(v.InstanceLocation), fmt.Sprint(k.Duplicates[1])))
		return []Diagnostic{at(item, catalogue.Text(lang, mListedTwice,
			shownValue(lang, item.value), joinIndex(p.path, k.Duplicates[0])))}
	case *kind.Required:
		var out []Diagnostic
		for _, key := range k.Missing {
			out = append(out, at(p, missingText(lang, key)))
		}
		return out
	case *kind.AdditionalProperties:
		var out []Diagnostic
		known := knownKeys(v.SchemaURL)
		for _, key := range k.Properties {
			kp := locate(l.root, append(slices.Clone(v.InstanceLocation), key))
			if shape == "agents/*/env" {
				out = append(out, at(kp, catalogue.Text(lang, mBadEnvName, q(lang, key), q(lang, "="))))
				continue
			}
			out = append(out, at(kp, unknownKeyText(lang, key, known)))
		}
		return out
	case *kind.FalseSchema:
		return []Diagnostic{at(p, notForTypeText(lang, v.InstanceLocation, l.runtimeType(v.InstanceLocation)))}
	}
	return []Diagnostic{at(p, catalogue.Text(lang, mInvalidValue))}
}

// text returns the text of the place's value when it is a scalar.
func (p place) text() string {
	s, _ := scalarText(p.value)
	return s
}

// shownValue quotes a scalar value for a message, or says what kind of value it is.
func shownValue(lang i18n.Lang, n *yaml.Node) string {
	n = resolve(n)
	switch {
	case n == nil:
		return catalogue.Text(lang, mThisValue)
	case n.Kind == yaml.ScalarNode:
		return q(lang, n.Value)
	case n.Kind == yaml.SequenceNode:
		return catalogue.Text(lang, mThisList)
	default:
		return catalogue.Text(lang, mThisMapping)
	}
}

// runtimeType returns the runtime type of the agent whose runtime holds location.
func (l *loader) runtimeType(location []string) string {
	if len(location) < 1 {
		return ""
	}
	p := locate(l.root, location[:len(location)-1])
	_, t := field(p.value, "type")
	s, _ := scalarText(t)
	return s
}

var schemaDoc = sync.OnceValue(func() map[string]any {
	var doc map[string]any
	_ = json.Unmarshal(schema.ConfigSchema(), &doc) // tested in schema: it is JSON
	return doc
})

var (
	knownKeysMu    sync.Mutex
	knownKeysCache = map[string][]string{}
	pointerTokens  = strings.NewReplacer("~1", "/", "~0", "~")
)

// knownKeys returns the keys the schema allows in the object at schemaURL (the schema
// location of an additionalProperties violation), sorted.
func knownKeys(schemaURL string) []string {
	knownKeysMu.Lock()
	defer knownKeysMu.Unlock()
	if keys, ok := knownKeysCache[schemaURL]; ok {
		return keys
	}
	_, fragment, _ := strings.Cut(schemaURL, "#")
	var node any = schemaDoc()
	for _, tok := range strings.Split(strings.TrimPrefix(fragment, "/"), "/") {
		if tok == "" {
			continue
		}
		if t, err := url.PathUnescape(tok); err == nil {
			tok = t
		}
		m, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		node = m[pointerTokens.Replace(tok)]
	}
	m, _ := node.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	knownKeysCache[schemaURL] = keys
	return keys
}
