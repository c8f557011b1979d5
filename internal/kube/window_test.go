package kube

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWindow: answers widen the window up to its cap, a 429 halves it,
// and no more than the window is ever in flight.
func TestWindow(t *testing.T) {
	w := NewWindow(4, 8)
	for range 40 {
		if err := w.acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
		w.release(http.StatusOK)
	}
	if got := w.Limit(); got != 8 {
		t.Errorf("after answers: limit %d, want the cap 8", got)
	}
	w.release(http.StatusTooManyRequests) // as if one in flight came back 429
	w.inFlight++                          // (release counted it out)
	if got := w.Limit(); got != 4 {
		t.Errorf("after a 429: limit %d, want 4", got)
	}
	w.inFlight--
	if w.Rejected() != 1 {
		t.Errorf("rejected %d, want 1", w.Rejected())
	}

	// Under load, in flight never exceeds the limit.
	w = NewWindow(3, 3)
	var cur, peak atomic.Int32
	var wg sync.WaitGroup
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.acquire(context.Background()); err != nil {
				t.Error(err)
				return
			}
			n := cur.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			cur.Add(-1)
			w.release(http.StatusOK)
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 3 {
		t.Errorf("%d in flight at once, window 3", p)
	}
	ctx, cancel := context.WithCancel(context.Background())
	for range 3 {
		_ = w.acquire(ctx)
	}
	cancel()
	if err := w.acquire(ctx); err == nil {
		t.Error("a full window let a cancelled request through")
	}
}
