package predict

import (
	"fmt"
	"os"
	"strconv"
	"time"
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

// WithEnvLimits is o with the limits the environment overrides.
func WithEnvLimits(o ClusterOptions) (ClusterOptions, error) {
	var err error
	if o.RequestTimeout, err = envDuration(envRequestTimeout, o.RequestTimeout); err != nil {
		return o, err
	}
	if o.Deadline, err = envDuration(envDeadline, o.Deadline); err != nil {
		return o, err
	}
	if s := os.Getenv(envMaxRetries); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return o, fmt.Errorf("%s=%q: not a number", envMaxRetries, s)
		}
		// The engine reads 0 as "default" and a negative value as "none".
		if n == 0 {
			n = -1
		}
		o.MaxRetries = n
	}
	return o, nil
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
