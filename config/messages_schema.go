package config

import (
	"strings"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"gopkg.in/yaml.v3"
)

// The messages for the JSON Schema's violations: each says what is wrong and what to
// write instead.

// kindName names a JSON type the way a message says it ("text", "a list"…).
func kindName(lang i18n.Lang, jsonType string) string {
	if m, ok := kindNames[jsonType]; ok {
		return catalogue.Text(lang, m)
	}
	return jsonType
}

// kindNames are the messages that name the JSON types.
var kindNames = map[string]message{
	"string":  mKindText,
	"integer": mKindInteger,
	"number":  mKindNumber,
	"boolean": mKindBoolean,
	"array":   mKindList,
	"object":  mKindMapping,
	"null":    mKindEmpty,
}

// typeText says that a value has the wrong type, with an example of the right one.
func typeText(lang i18n.Lang, shape string, want []string, got string, n *yaml.Node) string {
	switch shape {
	case "agents":
		return catalogue.Text(lang, mAgentsList)
	case "channels":
		return catalogue.Text(lang, mChannelsList)
	case "agents/*":
		return catalogue.Text(lang, mAgentMapping, kindName(lang, got))
	case "channels/*":
		return catalogue.Text(lang, mChannelMapping, kindName(lang, got))
	}
	if len(want) != 1 {
		var names []string
		for _, w := range want {
			names = append(names, kindName(lang, w))
		}
		return catalogue.Text(lang, mMustBe, list(lang, names), kindName(lang, got))
	}
	switch want[0] {
	case "string":
		if got == "null" {
			return catalogue.Text(lang, mTextNotEmpty)
		}
		if s, ok := scalarText(n); ok {
			return catalogue.Text(lang, mTextInQuotes, kindName(lang, got), printable(`"`+s+`"`))
		}
		return catalogue.Text(lang, mText, kindName(lang, got))
	case "integer":
		if s, ok := scalarText(n); ok && got == "number" {
			// "not a number" would contradict "a whole number": show the value (1.5).
			return catalogue.Text(lang, mInteger, printable(s))
		}
		return catalogue.Text(lang, mInteger, kindName(lang, got))
	case "array":
		if got == "string" {
			return catalogue.Text(lang, mListNotText, listExample(shape))
		}
		return catalogue.Text(lang, mList, kindName(lang, got))
	case "object":
		return catalogue.Text(lang, mMapping, kindName(lang, got))
	}
	return catalogue.Text(lang, mMustBe, kindName(lang, want[0]), kindName(lang, got))
}

// listExamples are the lists shown to a list written as text, by the key's last
// segment: each fits its key.
var listExamples = map[string]string{
	"args":      "[--acp, --verbose]",
	"afterStop": "[../scripts/agents.sh, unload, alice]",
	"protect":   `[AGENTS.md, "skills/**"]`,
	"create":    "[docker, compose, up, -d]",
	"stop":      "[docker, compose, stop]",
	"remove":    "[docker, compose, down]",
	"agents":    "[alice, bob]",
}

// listExample returns the example of a list for the key of shape.
func listExample(shape string) string {
	if e, ok := listExamples[shape[strings.LastIndex(shape, "/")+1:]]; ok {
		return e
	}
	return "[first, second]"
}

// patternText explains the form a text must have.
func patternText(lang i18n.Lang, shape, shown string) string {
	switch shape {
	case "agents/*/name":
		return nameText(lang, shown)
	case "agents/*/runtime/workspacePath":
		return catalogue.Text(lang, mNotAbsolute, shown)
	}
	return catalogue.Text(lang, mNotValid, shown)
}

// nameText is the specification's message for an agent name that is not an identifier.
func nameText(lang i18n.Lang, shown string) string {
	return catalogue.Text(lang, mBadName, shown)
}

// durationText explains the form of stopIdleAgentsAfter.
func durationText(lang i18n.Lang, shown string) string {
	return catalogue.Text(lang, mBadDuration, shown)
}

// missingText says that a required key is absent, with what to write where it helps.
func missingText(lang i18n.Lang, key string) string {
	base := catalogue.Text(lang, mMissingKey, q(lang, key))
	if m, ok := missingHelp[key]; ok {
		return base + catalogue.Text(lang, m)
	}
	return base
}

// missingHelp says what to write for a missing key, where it helps.
var missingHelp = map[string]message{
	"version":   mMissingVersion,
	"agents":    mMissingAgents,
	"type":      mMissingType,
	"container": mMissingContainer,
	"sandbox":   mMissingSandbox,
}

// unknownKeyText reports an unknown key, suggesting the nearest known key when one is
// close and listing the known keys otherwise.
func unknownKeyText(lang i18n.Lang, key string, known []string) string {
	if s := nearest(key, known); s != "" {
		return catalogue.Text(lang, mUnknownKeyNear, q(lang, key), q(lang, s))
	}
	if len(known) == 0 {
		return catalogue.Text(lang, mUnknownKey, q(lang, key))
	}
	return catalogue.Text(lang, mUnknownKeyKnown, q(lang, key), strings.Join(known, ", "))
}

// runtimeKeyTypes says with which runtime types each runtime key goes.
var runtimeKeyTypes = map[string][]string{
	"container":     {"container"},
	"sandbox":       {"sbx"},
	"workspacePath": {"container", "sbx"},
	"lifecycle":     {"container", "sbx"},
}

// notForTypeText reports a runtime key that does not go with the runtime's type.
func notForTypeText(lang i18n.Lang, location []string, runtimeType string) string {
	key := ""
	if len(location) > 0 {
		key = location[len(location)-1]
	}
	types := runtimeKeyTypes[key]
	var forTypes []string
	for _, t := range types {
		forTypes = append(forTypes, "type: "+t)
	}
	if len(forTypes) == 0 {
		return catalogue.Text(lang, mKeyNotAllowed, q(lang, key))
	}
	return catalogue.Text(lang, mKeyNotForType, q(lang, key), printable(runtimeType), list(lang, forTypes))
}

// joinQuoted quotes each word; used where a list of names is shown.
func joinQuoted(lang i18n.Lang, words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = q(lang, w)
	}
	return strings.Join(quoted, ", ")
}
