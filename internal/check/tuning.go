package check

import (
	"context"
	"time"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// checkDeadline bounds the whole cluster conversation of one check.
const checkDeadline = 10 * time.Minute

// clusterOptions are the engine's options for a check: the target, the
// check's deadline, and the environment's overrides (fault tests'), which
// the front end read into the run.
func clusterOptions(o Target) (predict.ClusterOptions, error) {
	return o.Run.Env.Limits.Apply(predict.ClusterOptions{
		FieldManager: o.FieldManager, Concurrency: o.Concurrency, Deadline: checkDeadline,
	})
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

// DefaultConcurrency is the parallel requests the API server works on
// when neither --concurrency nor the action says otherwise: the engine's
// own default, so that every front end starts from the same number.
const DefaultConcurrency = predict.DefaultConcurrency

// DefaultMaxInFlight caps the window of requests in flight
// (--max-in-flight): kube's.
const DefaultMaxInFlight = kube.DefaultMaxInFlight
