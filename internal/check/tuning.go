package check

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// Environment variables that override the cluster engine's limits. They
// exist so that fault-injection tests (docs/reliability.md) can meet a hung
// API server in seconds rather than minutes; the defaults suit real
// clusters and no flag exposes them.
const (
	envRequestTimeout = "OWNERSHIP_CHECK_REQUEST_TIMEOUT" // one attempt of one request (Go duration)
	envDeadline       = "OWNERSHIP_CHECK_DEADLINE"        // the whole cluster conversation (Go duration)
	envMaxRetries     = "OWNERSHIP_CHECK_MAX_RETRIES"     // retries of a transient failure
)

// checkDeadline bounds the whole cluster conversation of one check.
const checkDeadline = 10 * time.Minute

// clusterOptions are the engine's options for a check: the target, the
// check's deadline, and the overrides above.
func clusterOptions(o Target) (predict.ClusterOptions, error) {
	opts := predict.ClusterOptions{
		FieldManager: o.FieldManager, Concurrency: o.Concurrency, Deadline: checkDeadline,
	}
	var err error
	if opts.RequestTimeout, err = envDuration(envRequestTimeout, opts.RequestTimeout); err != nil {
		return opts, err
	}
	if opts.Deadline, err = envDuration(envDeadline, opts.Deadline); err != nil {
		return opts, err
	}
	if s := os.Getenv(envMaxRetries); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return opts, fmt.Errorf("%s=%q: not a number", envMaxRetries, s)
		}
		// The engine reads 0 as "default" and a negative value as "none".
		if n == 0 {
			n = -1
		}
		opts.MaxRetries = n
	}
	return opts, nil
}

func envDuration(name string, def time.Duration) (time.Duration, error) {
	s := os.Getenv(name)
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q: not a positive duration such as 30s", name, s)
	}
	return d, nil
}

// reachTimed reads discovery once before rendering, within the check's
// deadline (kube.Client.Reach says why), and says how long the answer
// took: discovery is one round trip (its documents are fetched side by
// side), so its time bounds the round trip to the API server from above.
func reachTimed(ctx context.Context, client *kube.Client, deadline time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	start := time.Now()
	err := client.Reach(ctx)
	return time.Since(start), err
}

// serviceTime is what the API server spends on one dry-run here
// (docs/benchmarks.md): requests in flight beyond the concurrency wait on
// the network, not on the server.
const serviceTime = 5 * time.Millisecond

// DefaultConcurrency is the parallel requests the API server works on
// when neither --concurrency nor the action says otherwise: the engine's
// own default, so that every front end starts from the same number.
const DefaultConcurrency = predict.DefaultConcurrency

// DefaultMaxInFlight caps the window of requests in flight
// (--max-in-flight): within what API Priority and Fairness gives a client
// by default, whose 429s are retried after their Retry-After.
const DefaultMaxInFlight = 64

// inFlight sizes the window of requests in flight to the round trip: with
// concurrency requests the server stays busy on loopback; across a round
// trip of rtt each request also waits rtt on the network, so
// concurrency*(1+rtt/serviceTime) keep it as busy (Little's law), up to
// limit. A remote cluster is then about as fast as a local one, and a
// local one gets what it got.
// A concurrency of 0 is the default one.
func inFlight(concurrency int, rtt time.Duration, limit int) int {
	if concurrency <= 0 {
		concurrency = DefaultConcurrency
	}
	limit = maxInFlight(limit)
	w := concurrency * (1 + int(rtt/serviceTime))
	return max(concurrency, min(w, limit))
}

// sizeWindow sizes c's window of requests in flight to the round trip
// (inFlight) under the --max-in-flight cap, and returns the cap.
func sizeWindow(c *kube.Client, rtt time.Duration, concurrency, maxFlight int) int {
	limit := maxInFlight(maxFlight)
	c.Window.Resize(inFlight(concurrency, rtt, limit), limit)
	return limit
}

// maxInFlight is the --max-in-flight cap, its default for 0.
func maxInFlight(n int) int {
	if n <= 0 {
		return DefaultMaxInFlight
	}
	return n
}
