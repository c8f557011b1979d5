package kube

import (
	"context"
	"net/http"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// Window bounds the requests in flight to the API server and adapts the
// bound to the server's answers, as TCP's congestion window does: a 429
// (API Priority and Fairness turning requests away, or a server at its
// limit) halves it, a window's worth of answered requests widens it by one,
// never past its cap. Every client built from one config shares it, so
// everything a run sends stays within what the server's answers allow.
// It is the one limit on requests: client-go's rate limit follows it
// (limiter.go), and stages bound their workers by it, not by a limit of
// their own.
type Window struct {
	rate     *rateLimiter
	rated    int // the limit rate was last sized for
	mu       sync.Mutex
	wake     chan struct{} // closed and replaced whenever a slot may be free
	limit    int
	ceiling  int
	inFlight int
	answered int // answers since the window last widened
	shrunk   time.Time
	rejected int
}

// shrinkEvery keeps one burst of 429s (every request of a full window
// turned away together) from halving the window once per request.
const shrinkEvery = 100 * time.Millisecond

// NewWindow starts at limit requests in flight, widening up to ceiling.
func NewWindow(limit, ceiling int) *Window {
	w := &Window{wake: make(chan struct{}), rate: newRateLimiter(max(limit, 1))}
	w.Resize(limit, ceiling)
	return w
}

// Resize sets the window and its cap (a measured round trip asks for more
// requests in flight than loopback does).
func (w *Window) Resize(limit, ceiling int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.ceiling = max(ceiling, 1)
	w.limit = min(max(limit, 1), w.ceiling)
	w.signal()
}

// Ceiling is the cap the window may widen to: enough workers for a stage
// to keep the window full.
func (w *Window) Ceiling() int { w.mu.Lock(); defer w.mu.Unlock(); return w.ceiling }

// Limit is the current bound; Rejected how many 429s the server answered.
func (w *Window) Limit() int    { w.mu.Lock(); defer w.mu.Unlock(); return w.limit }
func (w *Window) Rejected() int { w.mu.Lock(); defer w.mu.Unlock(); return w.rejected }

func (w *Window) acquire(ctx context.Context) error {
	for {
		w.mu.Lock()
		if w.inFlight < w.limit {
			w.inFlight++
			w.mu.Unlock()
			return nil
		}
		wake := w.wake
		w.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (w *Window) release(status int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inFlight--
	switch {
	case status == http.StatusTooManyRequests:
		w.rejected++
		if now := time.Now(); now.Sub(w.shrunk) > shrinkEvery {
			w.limit = max(w.limit/2, 1)
			w.shrunk, w.answered = now, 0
		}
	case status > 0 && status < 500:
		if w.answered++; w.answered >= w.limit && w.limit < w.ceiling {
			w.limit++
			w.answered = 0
		}
	}
	w.signal()
}

// signal wakes the waiters and tells the rate limiter the limit, which
// may have changed.
func (w *Window) signal() {
	if w.rated != w.limit {
		w.rate.resize(w.limit)
		w.rated = w.limit
	}
	close(w.wake)
	w.wake = make(chan struct{})
}

// wrap makes every request of cfg's clients go through the window, and
// its rate limiter theirs.
func (w *Window) wrap(cfg *rest.Config) {
	cfg.RateLimiter = w.rate
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if err := w.acquire(req.Context()); err != nil {
				return nil, err
			}
			resp, err := rt.RoundTrip(req)
			status := 0
			if err == nil {
				status = resp.StatusCode
				w.rate.observe(resp.Header)
			}
			w.release(status)
			return resp, err
		})
	})
}
