// Package agentstack is the agent stack: the adapters that give package chat its ports.
// The supervisor of package runtime starts each agent with an ACP connection of package acp
// (chat's Agents, Lease, AgentConn and AgentSession), and the history of package store keeps
// the conversations and channels (chat's History, Transcript and ChannelStore). The
// application and `sidekicks ask` share it; it draws nothing.
package agentstack
