package acp

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// updateSamples has one update of each kind the SDK knows.
var updateSamples = []string{
	`{"sessionUpdate":"user_message_chunk","content":{"type":"text","text":"hi"}}`,
	`{"sessionUpdate":"agent_message_chunk","content":{"type":"image","data":"aGk=","mimeType":"image/png"},"messageId":"m"}`,
	`{"sessionUpdate":"agent_thought_chunk","content":{"type":"resource_link","name":"a","uri":"file:///a"}}`,
	`{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Read","kind":"read","status":"pending","locations":[{"path":"/a","line":3}],"rawInput":{"a":[1,2]}}`,
	`{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed","content":[{"type":"content","content":{"type":"text","text":"out"}},{"type":"diff","path":"/a","oldText":null,"newText":"x"},{"type":"terminal","terminalId":"t"}]}`,
	`{"sessionUpdate":"plan","entries":[{"content":"step","priority":"high","status":"pending"}]}`,
	`{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"help","description":"Help","input":{"hint":"x"}}]}`,
	`{"sessionUpdate":"current_mode_update","currentModeId":"ask"}`,
	`{"sessionUpdate":"config_option_update","configOptions":[]}`,
	`{"sessionUpdate":"session_info_update","title":"T","updatedAt":"2026-01-01T00:00:00Z"}`,
	`{"sessionUpdate":"usage_update","used":10,"size":100,"cost":{"amount":0.5,"currency":"USD"}}`,
	`{"sessionUpdate":"tool_call","toolCallId":"t2","title":5}`,
	`{"sessionUpdate":"plan","entries":"no"}`,
}

// compareWithSDK fails when decodeKind and the SDK's own decoding disagree on raw. Only
// updates whose "sessionUpdate" key is spelled exactly are compared: the SDK finds the
// kind by that exact key (and decodes, say, "sessionUPDATE" as an empty
// user_message_chunk), where Sidekicks reads the kind as encoding/json matches fields.
func compareWithSDK(t *testing.T, raw []byte) {
	t.Helper()
	var k struct {
		Kind string `json:"sessionUpdate"`
	}
	if json.Unmarshal(raw, &k) != nil || !sdkKinds[k.Kind] {
		return
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || string(m["sessionUpdate"]) != strconv.Quote(k.Kind) {
		return
	}
	mine, err := decodeKind(raw, k.Kind)
	var theirs sdk.SessionUpdate
	sdkErr := json.Unmarshal(raw, &theirs)
	if (err == nil) != (sdkErr == nil) {
		t.Fatalf("%s: decodeKind error %v, SDK error %v", raw, err, sdkErr)
	}
	if err == nil && !reflect.DeepEqual(mine, theirs) {
		t.Fatalf("%s: decodeKind and the SDK disagree:\n%+v\n%+v", raw, mine, theirs)
	}
}

func TestDecodeKindDecodesAsTheSDK(t *testing.T) {
	for _, s := range updateSamples {
		compareWithSDK(t, []byte(s))
	}
}

func FuzzDecodeKind(f *testing.F) {
	for _, s := range updateSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		compareWithSDK(t, raw)
	})
}
