// Package workbench is what the user does with agents beyond talking to them: the Agents
// panel (every agent with its state, and the actions on it), the Files window on an
// agent's workspace (a tree, a highlighted viewer, new file or folder, rename, delete, and
// editing in a small built-in editor or in $EDITOR), the Log window, and the terminal.
//
// Everything here runs on the screen's goroutine, like every widget; the supervisor's
// calls and the workspace's operations (which may run docker exec or sbx exec) run on other
// goroutines and hand their results back with App.Post. The terminal and $EDITOR are the
// exception by design: they take the terminal over with App.Suspend, and the screen's
// goroutine waits for them.
//
// How the application uses it:
//
//	panel := agents.NewPanel(agents.PanelOptions{App: app, Supervisor: sup, Logs: sup.Logs(),
//		Agents: cfg.Agents, OpenConversation: openAgentWindow})
//	panel.Show()             // Agent ▸ Agents…: opens the panel, or focuses it
//	panel.SetAgents(agents)  // after a reload
//	panel.OpenFiles(name)    // also Log, Terminal: from a menu, outside the panel
package workbench
