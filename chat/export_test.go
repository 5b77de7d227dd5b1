package chat

// WaitSaves lets the tests see the saves a change queued, without forcing any (Flush
// forces those of streaming entries).
func (c *Conversation) WaitSaves() { c.waitSaves() }
