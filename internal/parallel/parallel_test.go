package parallel

import (
	"sync/atomic"
	"testing"
)

func TestForCallsEachIndexOnceWithinTheBound(t *testing.T) {
	for _, tc := range []struct{ n, workers, wantMax int }{
		{0, 4, 0}, {1, 4, 1}, {100, 3, 3}, {5, 0, 1}, {5, -2, 1},
	} {
		calls := make([]atomic.Int32, tc.n)
		var running, peak atomic.Int32
		For(tc.n, tc.workers, func(i int) {
			r := running.Add(1)
			for {
				p := peak.Load()
				if r <= p || peak.CompareAndSwap(p, r) {
					break
				}
			}
			calls[i].Add(1)
			running.Add(-1)
		})
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d workers=%d: fn(%d) called %d times", tc.n, tc.workers, i, c)
			}
		}
		if p := int(peak.Load()); p > tc.wantMax {
			t.Errorf("n=%d workers=%d: %d calls at once, want at most %d", tc.n, tc.workers, p, tc.wantMax)
		}
	}
}

// TestPoolWaitsForWorkAddedByWork: a job that queues more (a LIST that
// falls back to GETs) is waited for with all it added.
func TestPoolWaitsForWorkAddedByWork(t *testing.T) {
	const n = 50
	var done atomic.Int32
	var running, peak atomic.Int32
	p := NewPool(4, 2*n)
	for range n {
		p.Go(func() {
			r := running.Add(1)
			for {
				pk := peak.Load()
				if r <= pk || peak.CompareAndSwap(pk, r) {
					break
				}
			}
			running.Add(-1)
			p.Go(func() { done.Add(1) })
			done.Add(1)
		})
	}
	p.Wait()
	if got := done.Load(); got != 2*n {
		t.Errorf("%d jobs done, want %d", got, 2*n)
	}
	if pk := peak.Load(); pk > 4 {
		t.Errorf("%d jobs at once, want at most 4", pk)
	}
}
