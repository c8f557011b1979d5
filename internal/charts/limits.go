package charts

import (
	"context"
	"fmt"
	"sync"
)

// hostSlots bound the requests to one host at once, as a registry's rate
// limit and a runner's share of it want.
type hostSlots struct {
	perHost int
	mu      sync.Mutex
	slots   map[string]chan struct{}
}

func newHostSlots(perHost int) *hostSlots {
	return &hostSlots{perHost: perHost, slots: map[string]chan struct{}{}}
}

// acquire waits for a slot of host, or for ctx's end.
func (h *hostSlots) acquire(ctx context.Context, host string) (func(), error) {
	h.mu.Lock()
	ch, ok := h.slots[host]
	if !ok {
		ch = make(chan struct{}, h.perHost)
		h.slots[host] = ch
	}
	h.mu.Unlock()
	select {
	case ch <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-ch }) }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// tooLargeError is a body past its bound.
type tooLargeError struct{ limit int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("larger than %d MiB, the bound source-controller keeps too", e.limit>>20)
}
