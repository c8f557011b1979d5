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

// reach reads discovery once before rendering, within the check's
// deadline (kube.Client.Reach says why).
func reach(ctx context.Context, client *kube.Client, deadline time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	return client.Reach(ctx)
}
