package kube

import (
	"context"
	"net/http"
	"sync/atomic"

	"golang.org/x/time/rate"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/client-go/util/flowcontrol"
)

// Per request the window lets in flight, the token bucket of a server
// without API Priority and Fairness allows this many requests a second,
// and this many at once: a dry-run takes milliseconds, so the bucket stays
// wider than the window and only stops a runaway loop.
const (
	qpsPerRequest   = 50
	burstPerRequest = 100
)

// rateLimiter is the client-side rate limit of every client built from
// the window's config (rest.Config.RateLimiter), made to follow the
// window so that the window is the one limit a run meets. A server with
// API Priority and Fairness paces its clients itself, and its 429s shrink
// the window: a client-side bucket there is only a second limit that the
// window cannot see (client-go's fixed QPS capped a run at --concurrency 1
// below what its window had grown to), so it is off, as
// kubernetes-sigs/cli-utils turns it off when flowcontrol.IsEnabled. The
// server says it has APF in the headers of its answers, so every answer
// tells, with no request of its own. A server without it gets a token
// bucket sized from the window's limit.
type rateLimiter struct {
	apf    atomic.Bool
	bucket *rate.Limiter
}

var _ flowcontrol.RateLimiter = (*rateLimiter)(nil)

func newRateLimiter(limit int) *rateLimiter {
	return &rateLimiter{bucket: rate.NewLimiter(rate.Limit(qpsPerRequest*limit), burstPerRequest*limit)}
}

// resize follows the window's limit.
func (l *rateLimiter) resize(limit int) {
	l.bucket.SetLimit(rate.Limit(qpsPerRequest * limit))
	l.bucket.SetBurst(burstPerRequest * limit)
}

// observe reads an answer's headers: APF names the flow schema and
// priority level that admitted (or rejected) the request.
func (l *rateLimiter) observe(h http.Header) {
	if l.apf.Load() {
		return
	}
	if h.Get(flowcontrolv1.ResponseHeaderMatchedFlowSchemaUID) != "" || h.Get(flowcontrolv1.ResponseHeaderMatchedPriorityLevelConfigurationUID) != "" {
		l.apf.Store(true)
	}
}

func (l *rateLimiter) TryAccept() bool { return l.apf.Load() || l.bucket.Allow() }

func (l *rateLimiter) Accept() { _ = l.Wait(context.Background()) }

func (l *rateLimiter) Stop() {}

func (l *rateLimiter) QPS() float32 { return float32(l.bucket.Limit()) }

func (l *rateLimiter) Wait(ctx context.Context) error {
	if l.apf.Load() {
		return nil
	}
	return l.bucket.Wait(ctx)
}
