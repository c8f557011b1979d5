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

// Limits are the environment's overrides of the engine's limits, read
// once by whoever starts a run (EnvLimits) and applied to each check's
// options (Apply); a zero field keeps the engine's default.
type Limits struct {
	RequestTimeout time.Duration
	Deadline       time.Duration
	// MaxRetries set is never 0: the engine reads 0 as "default" and a
	// negative value as "none".
	MaxRetries int
	// Err is the first override that could not be read: a check that
	// talks to a cluster fails with it, one that does not never sees it.
	Err error
}

// EnvLimits reads the overrides from the environment.
func EnvLimits() Limits {
	var l Limits
	if l.RequestTimeout, l.Err = envDuration(envRequestTimeout, 0); l.Err != nil {
		return l
	}
	if l.Deadline, l.Err = envDuration(envDeadline, 0); l.Err != nil {
		return l
	}
	if s := os.Getenv(envMaxRetries); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			l.Err = fmt.Errorf("%s=%q: not a number", envMaxRetries, s)
			return l
		}
		if n == 0 {
			n = -1
		}
		l.MaxRetries = n
	}
	return l
}

// Apply is o with the limits l overrides, or l's error.
func (l Limits) Apply(o ClusterOptions) (ClusterOptions, error) {
	if l.Err != nil {
		return o, l.Err
	}
	if l.RequestTimeout > 0 {
		o.RequestTimeout = l.RequestTimeout
	}
	if l.Deadline > 0 {
		o.Deadline = l.Deadline
	}
	if l.MaxRetries != 0 {
		o.MaxRetries = l.MaxRetries
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
