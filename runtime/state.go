package runtime

import "time"

// State is where an agent is in its life.
type State string

// The states of an agent.
const (
	Stopped  State = "stopped"  // no process
	Starting State = "starting" // its container or sandbox is checked, its process starts, ACP initializes
	Ready    State = "ready"    // running, no turn in progress
	Busy     State = "busy"     // running, at least one turn in progress
	Waiting  State = "waiting"  // a turn waits for a free slot (maxRunningAgents)
	Stopping State = "stopping" // its process is being stopped
	Error    State = "error"    // its start failed, or its process ended by itself
)

// AgentState is what the screen shows of an agent.
type AgentState struct {
	Name  string
	State State
	// Reason says why the agent is in Error (or why it was last stopped), in English, for
	// the log and for tests; the screen builds its own words from the other fields.
	Reason string
	// Failure is why the agent's start failed, as an error the screen can describe in the
	// user's language (it wraps the Connect hook's error): nil when its process ended by
	// itself or it was stopped. With it, Exit is how the process ended once stopped.
	Failure error
	// Exit is how the process ended when it ended by itself (Error), nil otherwise.
	Exit *ExitStatus
	// StderrTail is the last lines of stderr of a process that ended by itself.
	StderrTail []string
	// Started is when the current process started (zero when none runs).
	Started time.Time
	// LastActivity is when a turn last began or ended.
	LastActivity time.Time
	// Pid is the current process's id (0 when none runs).
	Pid int
	// Turns is how many turns are in progress (leases held).
	Turns int
}

// Event tells a subscriber that agent states changed. Events coalesce: a subscriber that
// reads slowly gets fewer of them, but the last one it gets is always current.
type Event struct {
	// States is every agent's state, in the configuration's order.
	States []AgentState
	// Running is how many agents hold a slot, out of MaxRunning.
	Running, MaxRunning int
}
