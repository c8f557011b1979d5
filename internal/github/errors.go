package github

import (
	"errors"
	"fmt"

	gh "github.com/google/go-github/v66/github"
)

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
