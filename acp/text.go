package acp

// maxQuoted is how many bytes of an agent-chosen string an error message or a statistic
// repeats (through safetext.Snippet); the rest is replaced by an ellipsis, so that a
// hostile agent cannot make an error message megabytes long.
const maxQuoted = 200
