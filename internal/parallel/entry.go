package parallel

import "sync"

// Entry is key's entry of *m, made (with *m itself) when absent, under
// mu: the slot that work done once per key for a run (a schema, a
// listing, a branch's fetch) keeps its sync.Once and its result in, so
// that callers for other keys never wait on it.
func Entry[K comparable, V any](mu *sync.Mutex, m *map[K]*V, key K) *V {
	mu.Lock()
	defer mu.Unlock()
	if *m == nil {
		*m = map[K]*V{}
	}
	e, ok := (*m)[key]
	if !ok {
		e = new(V)
		(*m)[key] = e
	}
	return e
}
