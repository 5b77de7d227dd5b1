package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// What an agent lists of its options is bounded and cleaned: escape sequences never reach
// the names shown, ids stay as sent, kinds Sidekicks cannot set are left out.
func TestConfigOptionsAreCleanedAndBounded(t *testing.T) {
	hostile := "A\x1b[31mred\x1b]0;pwned\x07\u202eevil"
	var list []any
	for i := range maxConfigs + 10 {
		list = append(list, map[string]any{"id": fmt.Sprint("o", i), "name": hostile, "type": "select", "currentValue": "v",
			"options": []any{map[string]any{"value": "v", "name": hostile}}})
	}
	list = append([]any{map[string]any{"id": "slider", "name": "Slider", "type": "range", "currentValue": 3}}, list...)
	raw, _ := json.Marshal(list)
	opts := decodeConfigOptions(raw)
	if len(opts) != maxConfigs || opts[0].ID != "o0" {
		t.Fatalf("%d options, first %q", len(opts), opts[0].ID)
	}
	for _, s := range []string{opts[0].Name, opts[0].Values[0].Name, opts[0].CurrentName()} {
		if strings.ContainsAny(s, "\x1b\x07\u202e") {
			t.Errorf("not cleaned: %q", s)
		}
	}
	var values []any
	for i := range maxConfigValues + 5 {
		values = append(values, map[string]any{"value": fmt.Sprint(i), "name": "v"})
	}
	raw, _ = json.Marshal([]any{map[string]any{"id": "big", "name": "Big", "type": "select", "currentValue": "0", "options": values}})
	if opts := decodeConfigOptions(raw); len(opts) != 1 || len(opts[0].Values) != maxConfigValues {
		t.Errorf("values not bounded: %+v", len(opts[0].Values))
	}
	raw, _ = json.Marshal(map[string]any{"currentModeId": "x", "availableModes": []any{map[string]any{"id": "x", "name": hostile}, map[string]any{"name": "no id"}}})
	modes, current := decodeModes(raw)
	if len(modes) != 1 || current != "x" || strings.ContainsAny(modes[0].Name, "\x1b\x07\u202e") {
		t.Errorf("modes: %+v %q", modes, current)
	}
}

// The messages of modes and options have both languages, with the same verbs.
func TestModesTextsComplete(t *testing.T) {
	for _, p := range modesCatalogue.Problems(mcNoMode) {
		t.Error(p)
	}
}
