package acp

// SetBeforeQueue makes Prompt call f between the start of its turn and the queuing of its
// request, so that a test can run Cancel exactly in that window without relying on timing.
func SetBeforeQueue(s *Session, f func()) { s.beforeQueue = f }

// DecodeField decodes one property of an elicitation's schema.
var DecodeField = decodeField
