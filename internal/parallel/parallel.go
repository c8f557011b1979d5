// Package parallel runs independent pieces of work on a bounded number of
// goroutines: the one worker loop of the engines, the snapshot store,
// rendering, migrate planning and the streaming analysis.
package parallel

import "sync"

// For calls fn(i) for every i in [0, n), at most workers calls at a time
// (at least one), and returns when all have returned. fn must stop early
// by itself, e.g. when its context ends: For starts every call.
func For(n, workers int, fn func(i int)) {
	if n <= 0 {
		return
	}
	p := NewPool(min(workers, n), 0)
	for i := range n {
		p.Go(func() { fn(i) })
	}
	p.Wait()
}

// Pool runs the functions given to Go on at most a fixed number of
// goroutines, in the order given. A function may give the pool more work
// while it runs: Wait waits for that too.
type Pool struct {
	jobs    chan func()
	pending sync.WaitGroup
	workers sync.WaitGroup
}

// NewPool starts workers goroutines (at least one). queue is how many
// functions Go holds before it waits for a worker to take one: a function
// that gives more work must find room, so the queue then has to hold all
// the work there can be.
func NewPool(workers, queue int) *Pool {
	p := &Pool{jobs: make(chan func(), max(queue, 0))}
	for range max(workers, 1) {
		p.workers.Add(1)
		go func() {
			defer p.workers.Done()
			for f := range p.jobs {
				f()
				p.pending.Done()
			}
		}()
	}
	return p
}

// Go queues f. It must not be called after Wait has returned.
func (p *Pool) Go(f func()) {
	p.pending.Add(1)
	p.jobs <- f
}

// Wait returns when every function given to Go has returned, and stops the
// workers.
func (p *Pool) Wait() {
	p.pending.Wait()
	close(p.jobs)
	p.workers.Wait()
}
