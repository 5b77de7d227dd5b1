package acp

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// This file is elicitation/create and elicitation/complete (stable v1 schema): an agent
// asks the user for structured input, as a form built from a restricted JSON Schema or
// as a link to open (url mode). The connection decodes the request into an Elicitation,
// with every text sanitized and the schema reduced to the fields the protocol allows,
// asks Options.Elicit, and answers accept (with the content), decline or cancel.

// The elicitation methods.
const (
	ElicitationCreateMethod   = "elicitation/create"
	ElicitationCompleteMethod = "elicitation/complete"
)

// The actions an elicitation is answered with.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// The modes of an elicitation.
const (
	ElicitForm = "form"
	ElicitURL  = "url"
)

// Limits on what one elicitation may ask: more fields or choices are dropped.
const (
	maxElicitFields  = 50
	maxElicitChoices = 200
)

// FieldKind is the type of a form field.
type FieldKind int

// The kinds of fields a form may ask for.
const (
	FieldText    FieldKind = iota // a string
	FieldNumber                   // a number
	FieldInteger                  // an integer
	FieldBoolean                  // yes or no
	FieldChoice                   // one string of an enumeration
	FieldMulti                    // strings of an enumeration (an array)
)

// Choice is one value of an enumeration.
type Choice struct {
	// Value is the agent's own value, given back as it is: show Title.
	Value string
	// Title is what the user reads (the value itself when the agent gave no title).
	Title string
}

// Field is one field of a form.
type Field struct {
	// Name is the property's key, given back as it is.
	Name string
	// Title and Description are what the user reads (sanitized); Title is the name when
	// the agent gave none.
	Title, Description string
	Kind               FieldKind
	Required           bool
	// MinLength and MaxLength bound a text's length in characters (-1: no bound);
	// Pattern, when set, is the regular expression it must match; Format is email, uri,
	// date or date-time (or "").
	MinLength, MaxLength int
	Pattern              *regexp.Regexp
	PatternText          string
	Format               string
	// Min and Max bound a number or an integer (nil: no bound).
	Min, Max *float64
	// Choices are an enumeration's values; MinItems and MaxItems bound how many of a
	// multiple choice are picked (-1: no bound).
	Choices            []Choice
	MinItems, MaxItems int
	// Default is the value the form starts with: a string for a text, a number or a choice
	// (its value), "true" or "false", or the values of a multiple choice in DefaultSet.
	Default    string
	HasDefault bool
	DefaultSet []string
}

// Elicitation is an agent's request for input, sanitized.
type Elicitation struct {
	// Agent is the connection's agent.
	Agent string
	// SessionID is the session it is about ("" when it is about a request); ToolCallID
	// the tool call, when the agent said.
	SessionID, ToolCallID string
	// Mode is ElicitForm or ElicitURL.
	Mode string
	// Message says what is asked, sanitized (it may hold line breaks).
	Message string
	// Title is the form's title, when the schema has one.
	Title string
	// Fields are a form's fields, in the order of the schema's properties.
	Fields []Field
	// URL is the link of url mode, sanitized; ElicitationID its id, which
	// elicitation/complete names.
	URL, ElicitationID string
}

// ElicitationResult is the user's answer.
type ElicitationResult struct {
	// Action is ElicitAccept, ElicitDecline or ElicitCancel.
	Action string
	// Content is the accepted form's values by field name: string, float64, int64, bool
	// or []string (see Field.Value).
	Content map[string]any
}

// Elicitor is told the agent's elicitations (Options.Elicit). Elicit asks the user and
// returns the answer; it must return when ctx is done (the agent cancelled the request,
// or went away), and the answer is then cancel whatever it returns. Complete says that
// the agent finished the out-of-band interaction of a url elicitation.
type Elicitor interface {
	Elicit(ctx context.Context, e Elicitation) ElicitationResult
	Complete(agent, elicitationID string)
}

// elicitationCapabilities are the elicitation modes announced in initialize: form and
// url when Options.Elicit is set, none otherwise.
func (c *Conn) elicitationCapabilities() *sdk.ElicitationCapabilities {
	if c.opts.Elicit == nil {
		return nil
	}
	return &sdk.ElicitationCapabilities{Form: &sdk.ElicitationFormCapabilities{}, Url: &sdk.ElicitationUrlCapabilities{}}
}

// rawElicitation is elicitation/create's params as they come.
type rawElicitation struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	SessionID       string          `json:"sessionId"`
	ToolCallID      string          `json:"toolCallId"`
	RequestID       json.RawMessage `json:"requestId"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
	RequestedSchema *struct {
		Title      string                     `json:"title"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	} `json:"requestedSchema"`
}

// serveElicitation answers elicitation/create.
func (c *Conn) serveElicitation(ctx context.Context, params json.RawMessage) (any, *outError) {
	var r rawElicitation
	if err := json.Unmarshal(params, &r); err != nil {
		return nil, invalidParams(ElicitationCreateMethod, err)
	}
	e, bad := decodeElicitation(r, params)
	if bad != "" {
		return nil, &outError{Code: codeInvalidParams, Message: "invalid parameters for " + ElicitationCreateMethod + ": " + bad}
	}
	e.Agent = c.agent
	if e.SessionID != "" && c.session(e.SessionID) == nil {
		return nil, unknownSession(sdkSessionID(e.SessionID))
	}
	res := ElicitationResult{Action: ElicitCancel}
	if c.opts.Elicit != nil && ctx.Err() == nil {
		res = c.opts.Elicit.Elicit(ctx, e)
	}
	if ctx.Err() != nil {
		res = ElicitationResult{Action: ElicitCancel}
	}
	return elicitAnswer(e, res), nil
}

// elicitAnswer is the answer sent: accept with the content of the form's fields only
// (url mode has no content), decline or cancel; any other action is cancel.
func elicitAnswer(e Elicitation, res ElicitationResult) map[string]any {
	switch res.Action {
	case ElicitAccept:
		out := map[string]any{"action": ElicitAccept}
		if e.Mode == ElicitForm {
			content := map[string]any{}
			for _, f := range e.Fields {
				if v, ok := res.Content[f.Name]; ok && v != nil {
					content[f.Name] = v
				}
			}
			out["content"] = content
		}
		return out
	case ElicitDecline:
		return map[string]any{"action": ElicitDecline}
	}
	return map[string]any{"action": ElicitCancel}
}

// decodeElicitation checks the request and reduces it to what Sidekicks shows; bad says
// why it cannot be shown.
func decodeElicitation(r rawElicitation, params json.RawMessage) (Elicitation, string) {
	e := Elicitation{
		Mode:       r.Mode,
		Message:    safetext.Text(r.Message),
		SessionID:  r.SessionID,
		ToolCallID: safetext.Line(r.ToolCallID),
	}
	if r.SessionID == "" && !validID(r.RequestID) {
		return e, "neither sessionId nor requestId"
	}
	switch r.Mode {
	case ElicitURL:
		if r.URL == "" || r.ElicitationID == "" {
			return e, "url mode without url or elicitationId"
		}
		e.URL, e.ElicitationID = safetext.Line(r.URL), r.ElicitationID
		if e.URL != r.URL {
			return e, "the url holds control characters"
		}
	case ElicitForm:
		if r.RequestedSchema == nil {
			return e, "form mode without requestedSchema"
		}
		e.Title = safetext.Line(r.RequestedSchema.Title)
		e.Fields = decodeFields(params, r.RequestedSchema.Properties, r.RequestedSchema.Required)
	default:
		return e, "unknown mode " + safetext.Snippet(r.Mode, 40)
	}
	return e, ""
}

// decodeFields reads the schema's properties, in the order they come in the request
// (a Go map has none), dropping those of a type the protocol does not define.
func decodeFields(params json.RawMessage, props map[string]json.RawMessage, required []string) []Field {
	req := map[string]bool{}
	for _, n := range required {
		req[n] = true
	}
	names := propertyOrder(params, props)
	var out []Field
	for _, name := range names {
		if len(out) >= maxElicitFields {
			break
		}
		if f, ok := decodeField(name, props[name]); ok {
			f.Required = req[name]
			out = append(out, f)
		}
	}
	return out
}

// propertyOrder returns the properties' names in the order the request wrote them.
func propertyOrder(params json.RawMessage, props map[string]json.RawMessage) []string {
	var names []string
	if keys, ok := objectKeys(params, "requestedSchema", "properties"); ok {
		for _, k := range keys {
			if _, in := props[k]; in {
				names = append(names, k)
			}
		}
	}
	if len(names) != len(props) { // not read in order: sorted, at least stable
		names = names[:0]
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
	}
	return names
}
