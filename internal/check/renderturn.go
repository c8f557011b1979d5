package check

import (
	"context"
	"runtime"
)

// A run of many targets checks more of them at once than it has cores (a
// monorepo's target is a few objects whose requests wait a round trip or
// two), and they take turns to render: a render is CPU-bound, and its
// decoded objects are the most a target holds, until its engine seals
// them. So the targets waiting on the API server may be many, and the
// renders in memory at once stay as many as the cores.

// renderTurns is the run's turns to render, one per core.
func newRenderTurns() chan struct{} { return make(chan struct{}, runtime.GOMAXPROCS(0)) }

// renderTurn waits for t's turn to render within its run, and returns its
// end; a target of no run renders at once.
func (t Target) renderTurn(ctx context.Context) (func(), error) {
	if t.Shared == nil {
		return func() {}, nil
	}
	select {
	case t.Shared.renders <- struct{}{}:
		return func() { <-t.Shared.renders }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
