// Package app is Sidekicks on screen: a window per channel and per agent, the Agents
// panel, the menus and their entries, the application's labels in English and French, the
// configuration's reload, Open and Recent, and quitting. It draws through package window and
// reaches the agents only through its Agents interface (agentstack.Stack), the history
// through package store, and the configuration through package config.
package app
