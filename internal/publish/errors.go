package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// ErrCannotComment means the token may not write the comment: a read-only
// token (pull requests from forks), missing `pull-requests: write`, or a
// repository the token cannot see. The action then reports in the job
// summary and annotations only; it never fails the check for that alone.
var ErrCannotComment = errors.New("the token cannot write pull request comments")

// apiAttempts bounds the attempts of one request.
const apiAttempts = 3

// classify wraps a store's error with what was being done, marking the
// answers that mean "no permission" with ErrCannotComment.
func classify(st Store, op string, err error) error {
	f := st.Failure(err)
	if f.RateLimited {
		return fmt.Errorf("%s: rate limited: %w", op, err)
	}
	if f.Status == http.StatusUnauthorized || f.Status == http.StatusForbidden || f.Status == http.StatusNotFound {
		return fmt.Errorf("%s: %w: %w", op, ErrCannotComment, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// notFound tells an answer that the comment or label is not there (any
// more).
func notFound(st Store, err error) bool {
	return err != nil && st.Failure(err).Status == http.StatusNotFound
}

// again tells whether the failure err of attempt number attempt (from 1)
// is worth another attempt, and the wait first: the platform's
// Retry-After, else a second per failed attempt.
func again(st Store, attempt int, err error) (bool, time.Duration) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false, 0
	}
	f := st.Failure(err)
	wait := f.Wait
	if wait == 0 {
		wait = time.Duration(attempt) * time.Second
	}
	return f.Transient, wait
}

// retried runs op, a request that carries no body merged from an earlier
// read, again after transient failures (a secondary rate limit, 5xx
// answers, broken connections). Without it one 502 leaves a pull request
// with last run's section, or a duplicate comment another job created and
// could not delete. A create that failed after the platform stored it may
// be retried into a duplicate; Sticky merges and deletes duplicates anyway.
func retried(ctx context.Context, st Store, op func() error) error {
	_, err := retry.Loop{Attempts: apiAttempts, Again: func(attempt int, err error) (bool, time.Duration) {
		return again(st, attempt, err)
	}}.Do(ctx, op)
	return err
}
