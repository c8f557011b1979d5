package github

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	gh "github.com/google/go-github/v66/github"
)

// transient tells a failure worth another attempt (publish retries it, or
// starts over from a fresh read): a secondary rate limit (403 with
// Retry-After), 5xx answers and broken connections; and the wait GitHub
// asked for (0: none given).
func transient(err error) (bool, time.Duration) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false, 0
	}
	var abuse *gh.AbuseRateLimitError
	if errors.As(err, &abuse) {
		return true, abuse.GetRetryAfter()
	}
	switch statusOf(err) {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true, 0
	}
	var ne net.Error
	return errors.As(err, &ne), 0
}
