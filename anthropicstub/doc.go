// Package anthropicstub is the tests' stand-in for the Anthropic Messages API: a local HTTP
// server that answers POST /v1/messages with scripted turns (text, thinking, tool_use), streamed
// as server-sent events the way the SDK reads them, so that the Claude agents installed from
// npm (claude-code-acp, claude-agent-acp) do whole turns offline. It also installs such an
// agent from the npm registry into a cache folder, and skips the test with a clear message
// when the registry cannot be reached. Only tests import it.
package anthropicstub
