package predict

import (
	"context"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/parallel"
)

// readsLiveFirst tells whether the request is made of live, so that the
// dry-run waits for the live read: a client-side patch, a replace, and an
// unforced apply after the client-side upgrade (notforced.go).
func (c *Cluster) readsLiveFirst() bool {
	switch m := c.opts.Apply; m.Method {
	case delivery.ApplyClientSide, delivery.ApplyReplace:
		return true
	default:
		return !m.Force && c.opts.UpgradesClientSide
	}
}

// runLiveFirst is run for requests made of live: one job per target reads
// live and then sends the request, so that a live object is held by the
// job working on it alone (queued behind the others, the requests of a
// whole render would wait with their live objects read). A target of a
// LIST waits for it in its job: the LIST was queued first, so a worker is
// on it already, and a target the LIST did not settle is read with a GET
// in its own job.
func (c *Cluster) runLiveFirst(ctx context.Context, reader *liveReader, lists []liveGroup, gets []*target, deps renderDeps, done func(*target)) {
	jobs := len(lists) + len(gets)
	for _, g := range lists {
		jobs += len(g.targets)
	}
	pool := parallel.NewPool(min(c.opts.Concurrency, jobs), jobs)
	request := func(t *target) {
		c.dryRun(ctx, t, deps)
		if t.needsCreateCheck() {
			c.dryRunCreate(ctx, t)
		}
		done(t)
	}
	for _, g := range lists {
		listed := make(chan struct{})
		unsettled := map[*target]bool{}
		pool.Go(func() {
			defer close(listed)
			for _, t := range reader.list(ctx, g) {
				unsettled[t] = true
			}
		})
		for _, t := range g.targets {
			pool.Go(func() {
				<-listed
				if unsettled[t] {
					reader.get(ctx, t)
				}
				request(t)
			})
		}
	}
	for _, t := range gets {
		pool.Go(func() {
			reader.get(ctx, t)
			request(t)
		})
	}
	pool.Wait()
}
