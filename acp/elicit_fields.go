package acp

import (
	"bytes"
	"encoding/json"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/i18n"
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

// Value checks what the user entered in a text, number, integer or choice field (the
// value of the choice) and returns the value to send, or, when it is not valid, why, in
// lang. An empty optional field gives nil: it is left out of the answer.
func (f Field) Value(input string, lang i18n.Lang) (any, string) {
	s := strings.TrimSpace(input)
	if f.Kind == FieldText {
		s = input
	}
	if s == "" {
		if f.Required {
			return nil, elicitText.Text(lang, eRequired)
		}
		return nil, ""
	}
	switch f.Kind {
	case FieldText:
		n := utf8.RuneCountInString(s)
		switch {
		case f.MinLength >= 0 && n < f.MinLength:
			return nil, elicitText.Text(lang, eTooShort, f.MinLength)
		case f.MaxLength >= 0 && n > f.MaxLength:
			return nil, elicitText.Text(lang, eTooLong, f.MaxLength)
		case f.Pattern != nil && !f.Pattern.MatchString(s):
			return nil, elicitText.Text(lang, ePattern, f.PatternText)
		case !formatOK(f.Format, s):
			return nil, elicitText.Text(lang, eFormat, formatName(f.Format, lang))
		}
		return s, ""
	case FieldNumber, FieldInteger:
		v, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, elicitText.Text(lang, eNumber)
		}
		if f.Kind == FieldInteger && (v != math.Trunc(v) || math.Abs(v) > 1<<53) {
			return nil, elicitText.Text(lang, eInteger)
		}
		if f.Min != nil && v < *f.Min {
			return nil, elicitText.Text(lang, eMin, number(*f.Min))
		}
		if f.Max != nil && v > *f.Max {
			return nil, elicitText.Text(lang, eMax, number(*f.Max))
		}
		if f.Kind == FieldInteger {
			return int64(v), ""
		}
		return v, ""
	case FieldBoolean:
		return s == "true", ""
	case FieldChoice:
		for _, c := range f.Choices {
			if c.Value == s {
				return c.Value, ""
			}
		}
		return nil, elicitText.Text(lang, eChoice)
	}
	return nil, elicitText.Text(lang, eChoice)
}

// Values checks the values picked in a multiple choice field.
func (f Field) Values(picked []string, lang i18n.Lang) ([]string, string) {
	n := len(picked)
	switch {
	case n == 0 && f.Required:
		return nil, elicitText.Text(lang, eRequired)
	case f.MinItems >= 0 && n < f.MinItems:
		return nil, elicitText.Text(lang, eMinItems, f.MinItems)
	case f.MaxItems >= 0 && n > f.MaxItems:
		return nil, elicitText.Text(lang, eMaxItems, f.MaxItems)
	}
	out := []string{}
	for _, p := range picked {
		for _, c := range f.Choices {
			if c.Value == p {
				out = append(out, p)
			}
		}
	}
	return out, ""
}

func number(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func formatOK(format, s string) bool {
	switch format {
	case "email":
		a, err := mail.ParseAddress(s)
		return err == nil && a.Address == s
	case "uri":
		u, err := url.Parse(s)
		return err == nil && u.Scheme != ""
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err == nil
	}
	return true
}

func formatName(format string, lang i18n.Lang) string {
	switch format {
	case "email":
		return elicitText.Text(lang, eFmtEmail)
	case "uri":
		return elicitText.Text(lang, eFmtURI)
	case "date":
		return elicitText.Text(lang, eFmtDate)
	}
	return elicitText.Text(lang, eFmtDateTime)
}

// elicitMsg is a text of the form's validation.
type elicitMsg int

const (
	eRequired elicitMsg = iota
	eTooShort
	eTooLong
	ePattern
	eFormat
	eNumber
	eInteger
	eMin
	eMax
	eChoice
	eMinItems
	eMaxItems
	eFmtEmail
	eFmtURI
	eFmtDate
	eFmtDateTime
)

var elicitText = i18n.NewCatalogue[elicitMsg]([]string{
	eRequired:    "this field is required",
	eTooShort:    "at least %d characters",
	eTooLong:     "at most %d characters",
	ePattern:     "does not match the expected form (%s)",
	eFormat:      "not %s",
	eNumber:      "not a number",
	eInteger:     "not a whole number",
	eMin:         "at least %s",
	eMax:         "at most %s",
	eChoice:      "pick one of the choices",
	eMinItems:    "pick at least %d",
	eMaxItems:    "pick at most %d",
	eFmtEmail:    "an email address",
	eFmtURI:      "an address (URI) such as https://example.com",
	eFmtDate:     "a date such as 2026-12-31",
	eFmtDateTime: "a date and time such as 2026-12-31T23:59:00Z",
}, []string{
	eRequired:    "ce champ est obligatoire",
	eTooShort:    "au moins %d caractères",
	eTooLong:     "au plus %d caractères",
	ePattern:     "ne correspond pas à la forme attendue (%s)",
	eFormat:      "ce n'est pas %s",
	eNumber:      "ce n'est pas un nombre",
	eInteger:     "ce n'est pas un nombre entier",
	eMin:         "au moins %s",
	eMax:         "au plus %s",
	eChoice:      "choisissez l'une des valeurs proposées",
	eMinItems:    "choisissez-en au moins %d",
	eMaxItems:    "choisissez-en au plus %d",
	eFmtEmail:    "une adresse électronique",
	eFmtURI:      "une adresse (URI) comme https://example.com",
	eFmtDate:     "une date comme 2026-12-31",
	eFmtDateTime: "une date et une heure comme 2026-12-31T23:59:00Z",
})

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
