package acp

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// rawField is one property of an elicitation's schema as it comes.
type rawField struct {
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	MinLength   *int            `json:"minLength"`
	MaxLength   *int            `json:"maxLength"`
	Pattern     string          `json:"pattern"`
	Format      string          `json:"format"`
	Minimum     *float64        `json:"minimum"`
	Maximum     *float64        `json:"maximum"`
	MinItems    *int            `json:"minItems"`
	MaxItems    *int            `json:"maxItems"`
	Enum        []string        `json:"enum"`
	OneOf       []enumOption    `json:"oneOf"`
	Items       *rawItems       `json:"items"`
	Default     json.RawMessage `json:"default"`
}

type enumOption struct {
	Const string `json:"const"`
	Title string `json:"title"`
}

type rawItems struct {
	Enum  []string     `json:"enum"`
	AnyOf []enumOption `json:"anyOf"`
}

// maxPattern bounds a pattern's length; a longer one, or one that does not compile, is
// not checked (the agent checks what it receives anyway).
const maxPattern = 1000

// decodeField reduces one property to a Field; false for a type the protocol does not
// define, or an enumeration with no value.
func decodeField(name string, raw json.RawMessage) (Field, bool) {
	var r rawField
	if json.Unmarshal(raw, &r) != nil {
		return Field{}, false
	}
	f := Field{Name: name, Title: safetext.Line(r.Title), Description: safetext.Text(r.Description),
		MinLength: bound(r.MinLength), MaxLength: bound(r.MaxLength), MinItems: bound(r.MinItems), MaxItems: bound(r.MaxItems),
		Min: r.Minimum, Max: r.Maximum}
	if f.Title == "" {
		f.Title = safetext.Line(name)
	}
	switch r.Type {
	case "string":
		f.Kind = FieldText
		f.Choices = choices(r.Enum, r.OneOf)
		if len(f.Choices) > 0 {
			f.Kind = FieldChoice
		}
		if r.Pattern != "" && len(r.Pattern) <= maxPattern {
			if re, err := regexp.Compile(r.Pattern); err == nil {
				f.Pattern, f.PatternText = re, safetext.Line(r.Pattern)
			}
		}
		switch r.Format {
		case "email", "uri", "date", "date-time":
			f.Format = r.Format
		}
		var d string
		if json.Unmarshal(r.Default, &d) == nil && r.Default != nil {
			f.Default, f.HasDefault = safetext.Line(d), true
		}
	case "number", "integer":
		f.Kind = FieldNumber
		if r.Type == "integer" {
			f.Kind = FieldInteger
		}
		var d float64
		if json.Unmarshal(r.Default, &d) == nil && r.Default != nil {
			f.Default, f.HasDefault = strconv.FormatFloat(d, 'f', -1, 64), true
		}
	case "boolean":
		f.Kind = FieldBoolean
		var d bool
		if json.Unmarshal(r.Default, &d) == nil && r.Default != nil {
			f.Default, f.HasDefault = strconv.FormatBool(d), true
		}
	case "array":
		if r.Items == nil {
			return Field{}, false
		}
		f.Kind = FieldMulti
		f.Choices = choices(r.Items.Enum, r.Items.AnyOf)
		var d []string
		if json.Unmarshal(r.Default, &d) == nil {
			f.DefaultSet = d
		}
	default:
		return Field{}, false
	}
	if (f.Kind == FieldChoice || f.Kind == FieldMulti) && len(f.Choices) == 0 {
		return Field{}, false
	}
	return f, true
}

func bound(p *int) int {
	if p == nil || *p < 0 {
		return -1
	}
	return *p
}

// choices are an enumeration's values: titled ones (oneOf, anyOf), else plain ones.
func choices(plain []string, titled []enumOption) []Choice {
	var out []Choice
	for _, o := range titled {
		if len(out) < maxElicitChoices {
			t := safetext.Line(o.Title)
			if t == "" {
				t = safetext.Line(o.Const)
			}
			out = append(out, Choice{Value: o.Const, Title: t})
		}
	}
	if len(out) == 0 {
		for _, v := range plain {
			if len(out) < maxElicitChoices {
				out = append(out, Choice{Value: v, Title: safetext.Line(v)})
			}
		}
	}
	return out
}

// objectKeys returns the keys of the object at path in doc, in their order.
func objectKeys(doc json.RawMessage, path ...string) ([]string, bool) {
	raw := doc
	for _, p := range path {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil || m[p] == nil {
			return nil, false
		}
		raw = m[p]
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil, false
		}
	}
	return keys, true
}

func sdkSessionID(id string) sdk.SessionId { return sdk.SessionId(id) }

// handleElicitationComplete tells Options.Elicit that the agent finished a url
// elicitation.
func (c *Conn) handleElicitationComplete(params json.RawMessage) {
	var p struct {
		ElicitationID string `json:"elicitationId"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.ElicitationID == "" {
		c.ignore("an elicitation/complete of the wrong shape")
		return
	}
	if c.opts.Elicit != nil {
		c.opts.Elicit.Complete(c.agent, p.ElicitationID)
	}
}
