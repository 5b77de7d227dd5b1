package app

import (
	"context"
	"time"

	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/window"
)

// optionWait bounds the agent's answer to a change of mode or option.
const optionWait = 30 * time.Second

// sessionOptions is Agent ▸ Session options…: the modes and options of the agent's session
// in the focused window, each with its current value; picking one offers its values (a
// boolean is switched at once), and the change is sent to the agent and remembered for
// the session.
func (ap *application) sessionOptions() {
	ap.pickAgent(func(t target) {
		if !t.has {
			ap.app.Flash(ap.optionsText(imsgNoSession, t.agent))
			return
		}
		c := ap.agents
		ap.work.Do(func() {
			st, ok := c.SessionState(t.key, t.agent)
			ap.app.Post(func() {
				switch {
				case !ok:
					ap.app.Flash(ap.optionsText(imsgNoSession, t.agent))
				case len(st.Modes) == 0 && len(st.Options) == 0:
					ap.app.Flash(ap.optionsText(imsgNoOptions, t.agent))
				default:
					ap.chooseOption(t, st)
				}
			})
		})
	})
}

func (ap *application) optionsText(m imsg, agent string) string {
	return signInCatalogue.Text(ap.lang, m, agent)
}

// chooseOption lists the mode (when the session has modes and no option of category mode,
// which stands for them) and the options.
func (ap *application) chooseOption(t target, st agentstack.SessionState) {
	var items []window.ChoiceItem
	if _, ok := st.ModeOption(); ok {
		st.Modes = nil
	}
	if len(st.Modes) > 0 {
		items = append(items, window.ChoiceItem{Text: signInCatalogue.Text(ap.lang, imsgMode), Mark: st.ModeName(), MarkClass: window.ClassComment})
	}
	for _, o := range st.Options {
		items = append(items, window.ChoiceItem{Text: o.Name, Mark: ap.optionValue(o), MarkClass: window.ClassComment})
	}
	ap.app.Choose(window.Choice{Title: signInCatalogue.Text(ap.lang, imsgOptionsTitle, t.agent), Items: items}, func(i int, ok bool) {
		if !ok {
			return
		}
		if len(st.Modes) > 0 {
			if i == 0 {
				ap.chooseMode(t, st)
				return
			}
			i--
		}
		o := st.Options[i]
		if o.Type == agentstack.OptionBoolean {
			value := "true"
			if o.On {
				value = "false"
			}
			ap.setOption(t, o.Name, ap.boolText(!o.On), func(ctx context.Context) error {
				return ap.agents.SetSessionOption(ctx, t.key, t.agent, o.ID, value)
			})
			return
		}
		ap.chooseValue(t, o)
	})
}

// optionValue is an option's current value, for the list.
func (ap *application) optionValue(o agentstack.ConfigOption) string {
	if o.Type == agentstack.OptionBoolean {
		return ap.boolText(o.On)
	}
	return o.CurrentName()
}

func (ap *application) boolText(on bool) string {
	if on {
		return signInCatalogue.Text(ap.lang, imsgOn)
	}
	return signInCatalogue.Text(ap.lang, imsgOff)
}

// chooseMode offers the session's modes, the current one marked.
func (ap *application) chooseMode(t target, st agentstack.SessionState) {
	items := make([]window.ChoiceItem, len(st.Modes))
	sel := 0
	for i, m := range st.Modes {
		items[i] = ap.valueItem(m.Name, m.Description, m.ID == st.CurrentMode)
		if m.ID == st.CurrentMode {
			sel = i
		}
	}
	name := signInCatalogue.Text(ap.lang, imsgMode)
	ap.app.Choose(window.Choice{Title: name, Items: items, Selected: sel}, func(i int, ok bool) {
		if ok {
			m := st.Modes[i]
			ap.setOption(t, name, m.Name, func(ctx context.Context) error {
				return ap.agents.SetSessionMode(ctx, t.key, t.agent, m.ID)
			})
		}
	})
}

// chooseValue offers a select option's values (with their group), the current one marked.
func (ap *application) chooseValue(t target, o agentstack.ConfigOption) {
	items := make([]window.ChoiceItem, len(o.Values))
	sel := 0
	for i, v := range o.Values {
		name := v.Name
		if v.Group != "" {
			name = v.Group + " ▸ " + v.Name
		}
		items[i] = ap.valueItem(name, v.Description, v.ID == o.Current)
		if v.ID == o.Current {
			sel = i
		}
	}
	ap.app.Choose(window.Choice{Title: o.Name, Items: items, Selected: sel}, func(i int, ok bool) {
		if ok {
			v := o.Values[i]
			ap.setOption(t, o.Name, v.Name, func(ctx context.Context) error {
				return ap.agents.SetSessionOption(ctx, t.key, t.agent, o.ID, v.ID)
			})
		}
	})
}

// valueItem is a mode or a value in its list: its name, its description, "current" on
// the current one.
func (ap *application) valueItem(name, description string, current bool) window.ChoiceItem {
	it := window.ChoiceItem{Text: name}
	if description != "" {
		it.Text += " — " + description
	}
	if current {
		it.Mark, it.MarkClass = signInCatalogue.Text(ap.lang, imsgCurrent), window.ClassComment
	}
	return it
}

// setOption sends a change off the screen's goroutine and says how it went.
func (ap *application) setOption(t target, name, value string, set func(context.Context) error) {
	ap.work.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), optionWait)
		err := set(ctx)
		cancel()
		ap.app.Post(func() {
			if err != nil {
				ap.log.Printf("changing %s of %s: %v", name, t.agent, err)
				ap.tell(t, signInCatalogue.Text(ap.lang, imsgOptionFailed, t.agent, name, agentstack.DescribeError(err, ap.lang)))
				return
			}
			ap.tell(t, signInCatalogue.Text(ap.lang, imsgOptionSet, t.agent, name, value))
		})
	})
}
