package predict

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	utilnet "k8s.io/apimachinery/pkg/util/net"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// retryable says whether a failed request is worth another attempt, and how
// long the server asked to wait first (0: it did not say).
//
// Only answers that say "not now" are retried: 429, 500/502/503/504,
// timeouts and broken connections. Every other 4xx is the config's or the
// credentials' fault and repeats identically.
func retryable(err error) (bool, time.Duration) {
	if err == nil || meta.IsNoMatchError(err) || errors.Is(err, context.Canceled) {
		return false, 0
	}
	var st apierrors.APIStatus
	if errors.As(err, &st) {
		s := st.Status()
		if schemaMismatch(s) {
			return false, 0
		}
		switch s.Code {
		case 429, 500, 502, 503, 504:
			secs, _ := apierrors.SuggestsClientDelay(err)
			return true, time.Duration(secs) * time.Second
		}
		return false, 0
	}
	switch {
	case isTimeout(err),
		utilnet.IsConnectionReset(err),
		utilnet.IsConnectionRefused(err),
		utilnet.IsProbableEOF(err),
		utilnet.IsHTTP2ConnectionLost(err):
		return true, 0
	}
	return false, 0
}

// retrier runs a request again on transient failures, with exponential
// backoff and jitter, honouring Retry-After, within the context's deadline.
//
// It is the only retry loop: the requests it wraps are built with
// client-go's own Retry-After loop switched off (see noRetryClient), so a
// throttled request is never retried 10 times inside client-go and then
// again here.
type retrier struct {
	maxRetries int
	base, max  time.Duration
	// attemptTimeout bounds one request, so that a hung connection becomes a
	// retried timeout instead of eating the whole deadline.
	attemptTimeout time.Duration
	sleep          func(ctx context.Context, d time.Duration) error
}

func newRetrier(maxRetries int, attemptTimeout time.Duration) *retrier {
	return &retrier{
		maxRetries:     maxRetries,
		base:           200 * time.Millisecond,
		max:            10 * time.Second,
		attemptTimeout: attemptTimeout,
		sleep:          retry.Sleep,
	}
}

// do calls op until it succeeds, fails for good, runs out of retries or the
// deadline would pass while waiting. It returns the number of attempts and
// the last error.
func (r *retrier) do(ctx context.Context, op func(ctx context.Context) error) (int, error) {
	loop := retry.Loop{
		Attempts: r.maxRetries + 1,
		Sleep:    r.sleep,
		Again: func(attempt int, err error) (bool, time.Duration) {
			again, wait := retryable(err)
			return again, r.delay(attempt, wait)
		},
	}
	return loop.Do(ctx, func() error { return r.once(ctx, op) })
}

func (r *retrier) once(ctx context.Context, op func(ctx context.Context) error) error {
	if r.attemptTimeout <= 0 {
		return op(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, r.attemptTimeout)
	defer cancel()
	return op(ctx)
}

// delay is the wait before attempt+1. A server's Retry-After is a minimum;
// the jitter on top keeps workers that were throttled together from coming
// back together.
func (r *retrier) delay(attempt int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter + rand.N(r.base)
	}
	return retry.Backoff{Base: r.base, Max: r.max}.Delay(attempt)
}
