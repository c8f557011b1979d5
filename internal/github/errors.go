package github

import (
	"errors"
	"fmt"
	"net/http"

	gh "github.com/google/go-github/v66/github"
)

// ErrCannotComment means the token may not write the comment: a read-only
// token (pull requests from forks), missing `pull-requests: write`, or a
// repository the token cannot see. The action then reports in the job
// summary and annotations only; it never fails the check for that alone.
var ErrCannotComment = errors.New("the token cannot write pull request comments")

// classify wraps an API error with what was being done, marking the answers
// that mean "no permission" with ErrCannotComment.
func classify(op string, err error) error {
	var rl *gh.RateLimitError
	var abuse *gh.AbuseRateLimitError
	if errors.As(err, &rl) || errors.As(err, &abuse) {
		return fmt.Errorf("%s: rate limited: %w", op, err)
	}
	if status := statusOf(err); status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusNotFound {
		return fmt.Errorf("%s: %w: %w", op, ErrCannotComment, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// statusOf is the HTTP status of an API error, 0 when there is none.
func statusOf(err error) int {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}

// Reason is GitHub's short answer in an error, e.g. "403 Resource not
// accessible by integration", or the error itself when it has none.
func Reason(err error) string {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return fmt.Sprintf("%d %s", er.Response.StatusCode, er.Message)
	}
	return err.Error()
}

// reasoned is err worded by Reason, still unwrapping to err, so that a
// caller's errors.As sees GitHub's answer behind the short text.
func reasoned(err error) error { return &reasonError{err} }

type reasonError struct{ err error }

func (e *reasonError) Error() string { return Reason(e.err) }
func (e *reasonError) Unwrap() error { return e.err }
