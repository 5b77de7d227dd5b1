package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"git.rickub.com/bots-garden/sidekicks/i18n"
	"git.rickub.com/bots-garden/sidekicks/safetext"
)

// Bounds on a session's modes and options as an agent lists them: what is beyond is
// dropped, so that a hostile list stays small.
const (
	maxModes        = 64
	maxConfigs      = 64
	maxConfigValues = 256
	maxShownName    = 200
)

// Categories of session options an agent may give (ConfigOption.Category).
const (
	CategoryMode         = "mode"
	CategoryModel        = "model"
	CategoryThoughtLevel = "thought_level"
)

// Kinds of session options (ConfigOption.Type).
const (
	OptionSelect  = "select"
	OptionBoolean = "boolean"
)

// Mode is one of the modes a session can be in. ID is as the agent sent it (it goes back
// to the agent); Name and Description are cleaned for the screen.
type Mode struct {
	ID, Name, Description string
}

// ConfigValue is one value of a select option. Group is the name of its group, if any.
type ConfigValue struct {
	ID, Name, Description, Group string
}

// ConfigOption is one of a session's options (a model, a thought level…): a select with
// its values, or a boolean. IDs are as the agent sent them; names are cleaned.
type ConfigOption struct {
	ID, Name, Description string
	// Category is CategoryMode, CategoryModel, CategoryThoughtLevel, another the agent
	// named, or "".
	Category string
	// Type is OptionSelect or OptionBoolean.
	Type string
	// Current is a select's current value; On a boolean's.
	Current string
	On      bool
	Values  []ConfigValue
}

// CurrentName is the name of a select's current value (its id when it lists none).
func (o ConfigOption) CurrentName() string {
	return nameOf(o.Values, o.Current, func(v ConfigValue) (string, string) { return v.ID, v.Name })
}

// nameOf is the name of the item of that id, the id cleaned when none has it.
func nameOf[T any](items []T, id string, idName func(T) (string, string)) string {
	for _, it := range items {
		if i, n := idName(it); i == id {
			return n
		}
	}
	return safetext.Snippet(safetext.Line(id), maxShownName)
}

// SessionState is what a session says of its modes and options: from the answer to
// session/new or session/load, then current_mode_update and config_option_update, and the
// answers to SetMode and SetOption.
type SessionState struct {
	Modes       []Mode
	CurrentMode string
	Options     []ConfigOption
}

// ModeName is the name of the current mode ("" when the session has no modes).
func (st SessionState) ModeName() string {
	return nameOf(st.Modes, st.CurrentMode, func(m Mode) (string, string) { return m.ID, m.Name })
}

// ModeOption returns the session's first select option of category mode: an agent that
// gives one means it to stand for its modes (the protocol's configOptions supersede
// modes), which a client then does not show twice.
func (st SessionState) ModeOption() (ConfigOption, bool) {
	for _, o := range st.Options {
		if o.Category == CategoryMode && o.Type == OptionSelect {
			return o, true
		}
	}
	return ConfigOption{}, false
}

// Option returns the option of that id.
func (st SessionState) Option(id string) (ConfigOption, bool) {
	for _, o := range st.Options {
		if o.ID == id {
			return o, true
		}
	}
	return ConfigOption{}, false
}

// clone copies the state, so that a caller may keep it.
func (st SessionState) clone() SessionState {
	out := SessionState{Modes: slices.Clone(st.Modes), CurrentMode: st.CurrentMode, Options: slices.Clone(st.Options)}
	for i := range out.Options {
		out.Options[i].Values = slices.Clone(out.Options[i].Values)
	}
	return out
}

// ChoiceError means SetMode or SetOption was given a mode, an option or a value the
// session does not list: the agent was not asked.
type ChoiceError struct {
	Agent string
	// Option is the option's id; "" for a mode.
	Option string
	// Given is the mode or value asked for (cleaned).
	Given string
	// NoOption is true when the session has no option of that id.
	NoOption bool
	// Known are what the session lists instead (cleaned): modes, options, or the option's
	// values.
	Known []string
}

func (e *ChoiceError) Error() string { return e.text(i18n.English) }

func (e *ChoiceError) text(lang i18n.Lang) string {
	known := strings.Join(e.Known, ", ")
	if known == "" {
		known = modesCatalogue.Text(lang, mcNone)
	}
	switch {
	case e.Option == "":
		return modesCatalogue.Text(lang, mcNoMode, e.Agent, e.Given, known)
	case e.NoOption:
		return modesCatalogue.Text(lang, mcNoSuchOption, e.Agent, e.Option, known)
	}
	return modesCatalogue.Text(lang, mcNoOption, e.Agent, e.Option, e.Given, known)
}

type modesMessage int

const (
	mcNoMode modesMessage = iota
	mcNoOption
	mcNoSuchOption
	mcNone
	mcCount
)

var modesCatalogue = i18n.NewCatalogue[modesMessage](
	[]string{
		mcNoMode:       "agent %q has no mode %q in this session (modes: %s)",
		mcNoOption:     "agent %q cannot set %s to %q in this session (it takes: %s)",
		mcNoSuchOption: "agent %q has no option %q in this session (options: %s)",
		mcNone:         "none",
	}[:mcCount],
	[]string{
		mcNoMode:       "l'agent %q n'a pas de mode %q dans cette session (modes : %s)",
		mcNoOption:     "l'agent %q ne peut pas mettre %s à %q dans cette session (il accepte : %s)",
		mcNoSuchOption: "l'agent %q n'a pas d'option %q dans cette session (options : %s)",
		mcNone:         "aucun",
	}[:mcCount],
)

// choiceError says which modes, options or values the session lists instead of given.
func (s *Session) choiceError(option, given string) error {
	st := s.State()
	e := &ChoiceError{Agent: s.c.agent, Option: safetext.Snippet(safetext.Line(option), 80), Given: safetext.Snippet(safetext.Line(given), 80)}
	o, isOption := st.Option(option)
	switch {
	case option == "":
		for _, m := range st.Modes {
			e.Known = append(e.Known, m.ID)
		}
	case !isOption:
		e.NoOption = true
		for _, o := range st.Options {
			e.Known = append(e.Known, o.ID)
		}
	case o.Type == OptionBoolean:
		e.Known = []string{"true", "false"}
	default:
		for _, v := range o.Values {
			e.Known = append(e.Known, v.ID)
		}
	}
	for i, k := range e.Known {
		e.Known[i] = safetext.Snippet(safetext.Line(k), 80)
	}
	return e
}

// State returns what the session said last of its modes and options.
func (s *Session) State() SessionState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state.clone()
}

// OnState sets a function called (on the connection's reading goroutine, or SetMode's
// and SetOption's caller's) each time the session's modes or options change; it must be
// quick.
func (s *Session) OnState(f func(SessionState)) {
	s.mu.Lock()
	s.onState = f
	s.mu.Unlock()
}

// setState changes the state under the session's lock, then tells OnState's function.
func (s *Session) setState(change func(*SessionState)) {
	s.mu.Lock()
	change(&s.state)
	f, st := s.onState, s.state.clone()
	s.mu.Unlock()
	if f != nil {
		f(st)
	}
}

// stateFromResult reads the modes and options of an answer to session/new or
// session/load; what does not decode is left out.
func (s *Session) stateFromResult(raw json.RawMessage) {
	var r struct {
		Modes         json.RawMessage `json:"modes"`
		ConfigOptions json.RawMessage `json:"configOptions"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return
	}
	s.setState(func(st *SessionState) {
		st.Modes, st.CurrentMode = decodeModes(r.Modes)
		st.Options = decodeConfigOptions(r.ConfigOptions)
	})
}

// followState keeps the state up to date with the session's updates.
func (s *Session) followState(u sdk.SessionUpdate) {
	switch {
	case u.CurrentModeUpdate != nil:
		id := string(u.CurrentModeUpdate.CurrentModeId)
		s.setState(func(st *SessionState) { st.CurrentMode = id })
	case u.ConfigOptionUpdate != nil:
		raw, err := json.Marshal(u.ConfigOptionUpdate.ConfigOptions)
		if err != nil {
			return
		}
		opts := decodeConfigOptions(raw)
		s.setState(func(st *SessionState) { st.Options = opts })
	}
}

func decodeModes(raw json.RawMessage) ([]Mode, string) {
	var m struct {
		Current   string            `json:"currentModeId"`
		Available []json.RawMessage `json:"availableModes"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil, ""
	}
	var modes []Mode
	for _, a := range m.Available[:min(len(m.Available), maxModes)] {
		var w struct {
			ID          string `json:"id"`
			Name        string `json:"name"`
			Description string `json:"description"`
		}
		if json.Unmarshal(a, &w) == nil && w.ID != "" {
			modes = append(modes, Mode{ID: w.ID, Name: shownName(w.Name, w.ID), Description: shownName(w.Description, "")})
		}
	}
	return modes, m.Current
}

// shownName cleans a name for the screen, the id when it is empty.
func shownName(name, id string) string {
	if name == "" {
		name = id
	}
	return safetext.Snippet(safetext.Line(name), maxShownName)
}

func decodeConfigOptions(raw json.RawMessage) []ConfigOption {
	var list []json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []ConfigOption
	for _, item := range list {
		if len(out) == maxConfigs {
			break
		}
		var w struct {
			ID           string            `json:"id"`
			Name         string            `json:"name"`
			Description  string            `json:"description"`
			Category     string            `json:"category"`
			Type         string            `json:"type"`
			CurrentValue json.RawMessage   `json:"currentValue"`
			Options      []json.RawMessage `json:"options"`
		}
		if json.Unmarshal(item, &w) != nil || w.ID == "" {
			continue
		}
		o := ConfigOption{ID: w.ID, Name: shownName(w.Name, w.ID), Description: shownName(w.Description, ""),
			Category: safetext.Snippet(safetext.Line(w.Category), 40), Type: w.Type}
		switch w.Type {
		case OptionBoolean:
			if json.Unmarshal(w.CurrentValue, &o.On) != nil {
				continue
			}
		case OptionSelect:
			if json.Unmarshal(w.CurrentValue, &o.Current) != nil {
				continue
			}
			o.Values = decodeConfigValues(w.Options)
		default:
			continue // a kind Sidekicks cannot set
		}
		out = append(out, o)
	}
	return out
}

// decodeConfigValues reads a select's values, flat or in groups.
func decodeConfigValues(items []json.RawMessage) []ConfigValue {
	var out []ConfigValue
	type value struct {
		Value       string `json:"value"`
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	for _, it := range items {
		var w struct {
			value
			Group   string  `json:"group"`
			Options []value `json:"options"`
		}
		if json.Unmarshal(it, &w) != nil {
			continue
		}
		vals, group := []value{w.value}, ""
		if w.Options != nil {
			vals, group = w.Options, shownName(w.Name, w.Group)
		}
		for _, v := range vals {
			if v.Value == "" {
				continue
			}
			if len(out) == maxConfigValues {
				return out
			}
			out = append(out, ConfigValue{ID: v.Value, Name: shownName(v.Name, v.Value), Description: shownName(v.Description, ""), Group: group})
		}
	}
	return out
}

// SetMode asks the agent to put the session in a mode it listed (session/set_mode).
func (s *Session) SetMode(ctx context.Context, id string) error {
	st := s.State()
	if !slices.ContainsFunc(st.Modes, func(m Mode) bool { return m.ID == id }) {
		return s.choiceError("", id)
	}
	req := sdk.SetSessionModeRequest{SessionId: sdk.SessionId(s.id), ModeId: sdk.SessionModeId(id)}
	if _, err := s.c.call(ctx, "session/set_mode", req, nil); err != nil {
		return fmt.Errorf("setting the mode of a session of agent %q: %w", s.c.agent, err)
	}
	s.setState(func(st *SessionState) { st.CurrentMode = id })
	return nil
}

// SetOption asks the agent to change one of the session's options
// (session/set_config_option): value is the id of one of a select's values, or "true" or
// "false" for a boolean. The agent's answer lists every option again, which becomes the
// state.
func (s *Session) SetOption(ctx context.Context, id, value string) error {
	o, ok := s.State().Option(id)
	var params any
	switch {
	case ok && o.Type == OptionBoolean && (value == "true" || value == "false"):
		params = struct {
			SessionID string `json:"sessionId"`
			ConfigID  string `json:"configId"`
			Type      string `json:"type"`
			Value     bool   `json:"value"`
		}{s.id, id, OptionBoolean, value == "true"}
	case ok && o.Type == OptionSelect && slices.ContainsFunc(o.Values, func(v ConfigValue) bool { return v.ID == value }):
		params = struct {
			SessionID string `json:"sessionId"`
			ConfigID  string `json:"configId"`
			Value     string `json:"value"`
		}{s.id, id, value}
	default:
		return s.choiceError(id, value)
	}
	raw, err := s.c.call(ctx, "session/set_config_option", params, nil)
	if err != nil {
		return fmt.Errorf("setting %s in a session of agent %q: %w", safetext.Snippet(id, 80), s.c.agent, err)
	}
	var r struct {
		ConfigOptions json.RawMessage `json:"configOptions"`
	}
	if json.Unmarshal(raw, &r) == nil && r.ConfigOptions != nil {
		opts := decodeConfigOptions(r.ConfigOptions)
		s.setState(func(st *SessionState) { st.Options = opts })
	}
	return nil
}

// Ended is closed when the session's connection has ended.
func (s *Session) Ended() <-chan struct{} { return s.c.done }

// Agent is the name of the session's agent.
func (s *Session) Agent() string { return s.c.agent }

// Handler is the handler the session's updates go to.
func (s *Session) Handler() SessionHandler { return s.h }
