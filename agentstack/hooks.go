package agentstack

import (
	"sync"

	"git.rickub.com/bots-garden/sidekicks/chat"
)

// permissionsHook is who answers the permission requests of a conversation, set once the
// screen exists (the service is made before it).
type permissionsHook struct {
	mu sync.Mutex
	f  func(chat.Key) chat.Permissions
}

func (h *permissionsHook) set(f func(chat.Key) chat.Permissions) {
	h.mu.Lock()
	h.f = f
	h.mu.Unlock()
}

// get is the service's Permissions option; nil (every request cancelled) before set.
func (h *permissionsHook) get(k chat.Key) chat.Permissions {
	h.mu.Lock()
	f := h.f
	h.mu.Unlock()
	if f == nil {
		return nil
	}
	return f(k)
}
