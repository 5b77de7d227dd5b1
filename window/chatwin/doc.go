// Package chatwin is the content of a chat window: a one-to-one conversation with an
// agent, as the Turbo Python specification has it ("Touches dans une fenêtre agent",
// "Commandes et mentions", "La copie"), or a channel's conversation with its members
// (NewChannel), which works the same way.
//
// The window has two areas that take the keyboard in turn (Tab): the conversation, drawn
// from the bottom up by a convo.View with a cursor bar and a selection of whole lines, and
// the input, several lines long, with the / list of the agent's commands and the @ list of
// its workspace's files. Between them a rule shows the agent's state and, while a turn is in
// progress, a spinner drawn from the clock.
//
// How the application opens one, on the screen's goroutine:
//
//	w := chatwin.New(app, svc, chat.AgentKey(name), chatwin.AgentInfo{
//		Name: name, Title: title, Icon: icon,
//		Files: chatwin.WalkWorkspace(runtime.WorkspaceFor(agent)),
//		State: func() runtime.State { return states[name].State },
//	}, chatwin.Options{})
//	win, err := app.AddWindow(title, w)
//	w.SetWindow(win)
//	win.OnClose(func() { …; w.Closed() })
//
// and the service's permission requests reach the screen through Permissions: each waits on
// the App's board (Requests) until the window of its conversation shows it, above the input,
// and a key typed in that window, in front, answers it (permkeys.go says which, and when).
//
// Nothing here waits on I/O on the screen's goroutine: the calls to the service that may
// read the store or write to an agent run on a goroutine of the window's own, in order, and
// the workspace is walked on another.
package chatwin
