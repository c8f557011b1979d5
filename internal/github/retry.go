package github

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	gh "github.com/google/go-github/v66/github"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// apiAttempts bounds the attempts of one GitHub request.
const apiAttempts = 3

// retrying is Issues with transient failures retried: a secondary rate
// limit (403 with Retry-After), 5xx answers and broken connections. Without
// it one 502 leaves a pull request with last run's section, or a duplicate
// comment another job created and could not delete.
//
// A create that failed after GitHub stored it may be retried into a
// duplicate; Sticky merges and deletes duplicates anyway.
type retrying struct {
	Issues
}

func (r retrying) ListComments(ctx context.Context, owner, repo string, number int, opts *gh.IssueListCommentsOptions) ([]*gh.IssueComment, *gh.Response, error) {
	var out []*gh.IssueComment
	var resp *gh.Response
	err := r.do(ctx, func() (err error) {
		out, resp, err = r.Issues.ListComments(ctx, owner, repo, number, opts)
		return err
	})
	return out, resp, err
}

func (r retrying) CreateComment(ctx context.Context, owner, repo string, number int, comment *gh.IssueComment) (*gh.IssueComment, *gh.Response, error) {
	var out *gh.IssueComment
	var resp *gh.Response
	err := r.do(ctx, func() (err error) {
		out, resp, err = r.Issues.CreateComment(ctx, owner, repo, number, comment)
		return err
	})
	return out, resp, err
}

func (r retrying) EditComment(ctx context.Context, owner, repo string, id int64, comment *gh.IssueComment) (*gh.IssueComment, *gh.Response, error) {
	var out *gh.IssueComment
	var resp *gh.Response
	err := r.do(ctx, func() (err error) {
		out, resp, err = r.Issues.EditComment(ctx, owner, repo, id, comment)
		return err
	})
	return out, resp, err
}

func (r retrying) DeleteComment(ctx context.Context, owner, repo string, id int64) (*gh.Response, error) {
	var resp *gh.Response
	err := r.do(ctx, func() (err error) {
		resp, err = r.Issues.DeleteComment(ctx, owner, repo, id)
		return err
	})
	return resp, err
}

func (r retrying) do(ctx context.Context, op func() error) error {
	_, err := retry.Loop{Attempts: apiAttempts, Again: again}.Do(ctx, op)
	return err
}

// again tells whether the failure err of attempt number attempt (from 1)
// is worth another attempt, and the wait first: GitHub's Retry-After, else
// a second per failed attempt.
func again(attempt int, err error) (bool, time.Duration) {
	ok, wait := transient(err)
	if wait == 0 {
		wait = time.Duration(attempt) * time.Second
	}
	return ok, wait
}

// transient tells a failure worth another attempt, and the wait GitHub
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
