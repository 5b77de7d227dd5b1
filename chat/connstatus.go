package chat

// ConnStatus is what an agent's ACP connection knows of it, for Agent status: the
// acp package's Stats and the authMethods of its answer to initialize, copied into plain
// fields. Strings come from the agent: the screen sanitizes them.
type ConnStatus struct {
	// UnknownUpdates counts the session updates that could not be decoded (a kind the
	// client does not know, or a wrong shape); the last one's kind and error.
	UnknownUpdates   int64
	LastUnknownKind  string
	LastUnknownError string
	// Ignored counts the other messages there was nothing to do with; the reason of the last.
	Ignored     int64
	LastIgnored string
	// Malformed counts lines that were not JSON objects; Oversize lines over the limit.
	Malformed, Oversize int64
	// AuthMethods are the logins the agent asks for, offered in the answer to initialize.
	AuthMethods []AuthMethod
}

// AuthMethod is one login an agent offers.
type AuthMethod struct {
	Name        string
	Description string
}
