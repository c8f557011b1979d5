// Package parallel runs independent pieces of work on a bounded number of
// goroutines: the one loop the engines, the snapshot store, rendering and
// migrate planning each used to write for themselves.
package parallel

import "sync"

// For calls fn(i) for every i in [0, n), at most workers calls at a time
// (at least one), and returns when all have returned. fn must stop early
// by itself, e.g. when its context ends: For starts every call.
func For(n, workers int, fn func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(max(workers, 1), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
