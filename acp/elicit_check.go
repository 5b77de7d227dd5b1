package acp

import (
	"math"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"git.rickub.com/bots-garden/sidekicks/i18n"
)

// The checks of what the user enters in an elicitation's form, against the schema's
// constraints, with their messages in the user's language.

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
