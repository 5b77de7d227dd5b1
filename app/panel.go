package app

import (
	"git.rickub.com/bots-garden/sidekicks/agentstack"
	"git.rickub.com/bots-garden/sidekicks/config"
	"git.rickub.com/bots-garden/sidekicks/window/wizard"
	"git.rickub.com/bots-garden/sidekicks/window/workbench"
)

// This file puts the Agents panel (window/workbench) and the "Add an agent…" wizard
// (window/wizard) in the application: Agent ▸ Agents panel… and Agent ▸ Add an agent….

// panelState is what the application keeps of the Agents panel and of the configuration
// edited from the screen. Screen's goroutine only.
type panelState struct {
	// view is made the first time it is shown, on the agents of the configuration then;
	// every reload gives it the new ones.
	view *workbench.Panel
	// creating is set while Create agents file writes the file.
	creating bool
	// followsProject is set once Create agents file has started to follow the project
	// agents file's saves (there was no folder to follow at start).
	followsProject bool
}

// panelHandlers completes the menus' handlers with the Agents panel, the wizard, the
// project agents file and the editing of the configuration.
func (ap *application) panelHandlers(h menuHandlers) menuHandlers {
	h.AgentsPanel = ap.showPanel
	h.AddAgent = ap.addAgent
	h.EditConfig = ap.editConfig
	h.CanCreateAgentsFile = ap.canCreateAgentsFile
	h.CreateAgentsFile = ap.createAgentsFile
	h.CanAllowProject = ap.canAllowProject
	h.AllowProject = ap.allowProject
	return h
}

// agentsPanel returns the Agents panel, made on first use; nil when the agents run on no
// supervisor.
func (ap *application) agentsPanel() *workbench.Panel {
	if ap.panel.view != nil {
		return ap.panel.view
	}
	sup := ap.agents.Supervisor()
	ap.panel.view = workbench.NewPanel(workbench.PanelOptions{
		Highlighter:      ap.highlighter,
		App:              ap.app,
		Supervisor:       sup,
		Logs:             sup.Logs(),
		Agents:           ap.cfg.Agents,
		OpenConversation: ap.openAgent,
		DescribeFailure:  agentstack.DescribeError,
		OwnFiles:         agentstack.OwnFiles(ap.path, ap.o.dir),
		// Idle times are measured on the supervisor's clock, the real one.
	})
	return ap.panel.view
}

// showPanel opens the Agents panel, or focuses it (Agent ▸ Agents panel…).
func (ap *application) showPanel() {
	p := ap.agentsPanel()
	if p == nil {
		return
	}
	if err := p.Show(); err != nil {
		ap.log.Printf("opening the Agents panel: %v", err)
	}
}

// panelReloaded gives the Agents panel the agents of a configuration just applied.
func (ap *application) panelReloaded(cfg *config.Config) {
	if ap.panel.view != nil {
		ap.panel.view.SetAgents(cfg.Agents)
	}
}

// addAgent opens the "Add an agent…" wizard on the configuration file. Once it has
// written the agent, the configuration is read again (by its watcher, or here without
// one), so that the agent is in the menus, the panel and the @ completion at once.
func (ap *application) addAgent() {
	wizard.Open(ap.app, ap.path, ap.lang, func(name string) {
		ap.log.Printf("the wizard added the agent %s to %s", name, ap.path)
		ap.reloadAfterWrite()
	})
}
