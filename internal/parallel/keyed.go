package parallel

import (
	"context"
	"sync"
)

// Keyed is work done once per key for a run (a schema, a listing, a
// branch's fetch, a cluster's client): the first caller of a key builds
// its value outside the lock, so that callers of other keys never wait on
// it, and the others wait for that build with their own context. A value
// and an error are kept alike: a key that failed stays failed for the run,
// as every later caller would fail the same way. A build whose own
// context ended is not kept, since another caller's may not have: the
// next caller builds again. The zero value is ready to use.
type Keyed[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*keyed[V]
}

type keyed[V any] struct {
	done chan struct{}
	v    V
	err  error
	// dropped: the build was abandoned, and the waiters build again.
	dropped bool
}

// Get is key's value, built by build with ctx on first use. A caller
// whose ctx ends while another builds gets ctx.Err(); the build goes on
// for the others.
func (k *Keyed[K, V]) Get(ctx context.Context, key K, build func(ctx context.Context) (V, error)) (V, error) {
	for {
		k.mu.Lock()
		e, ok := k.m[key]
		if !ok {
			if k.m == nil {
				k.m = map[K]*keyed[V]{}
			}
			e = &keyed[V]{done: make(chan struct{})}
			k.m[key] = e
			k.mu.Unlock()
			return k.build(ctx, key, e, build)
		}
		k.mu.Unlock()
		select {
		case <-e.done:
			if !e.dropped {
				return e.v, e.err
			}
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		}
	}
}

func (k *Keyed[K, V]) build(ctx context.Context, key K, e *keyed[V], build func(ctx context.Context) (V, error)) (V, error) {
	// Dropped unless build returns a value worth keeping: a panic, or an
	// error of a context that ended, leaves the key to the next caller.
	e.dropped = true
	defer func() {
		if e.dropped {
			k.mu.Lock()
			delete(k.m, key)
			k.mu.Unlock()
		}
		close(e.done)
	}()
	e.v, e.err = build(ctx)
	e.dropped = e.err != nil && ctx.Err() != nil
	return e.v, e.err
}

// Each calls fn with every key built and its value, errors left out; a
// key being built is skipped. For the end of a run: letting go of what
// its keys hold.
func (k *Keyed[K, V]) Each(fn func(K, V)) {
	k.mu.Lock()
	var done []K
	var vals []V
	for key, e := range k.m {
		select {
		case <-e.done:
			if !e.dropped && e.err == nil {
				done, vals = append(done, key), append(vals, e.v)
			}
		default:
		}
	}
	k.mu.Unlock()
	for i, key := range done {
		fn(key, vals[i])
	}
}
