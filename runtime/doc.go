// Package runtime runs the agents' processes and reaches where they run: the supervisor
// (start on demand, the running limit, idle stop, crashes, afterStop), the local, container
// and sbx runtimes (existence check, lifecycle commands, docker start), the workspace file
// access with its protections, the terminal command, and the agents' logs.
//
// The package shares its name with the standard library's; files that need both import
// the standard one as goruntime.
package runtime
