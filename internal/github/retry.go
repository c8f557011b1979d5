package github

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	gh "github.com/google/go-github/v66/github"
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
	sleep func(ctx context.Context, d time.Duration) error
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
	for attempt := 1; ; attempt++ {
		err := op()
		again, wait := transient(err)
		if !again || attempt == apiAttempts {
			return err
		}
		if wait == 0 {
			wait = time.Duration(attempt) * time.Second
		}
		// A wait past the caller's deadline is the caller's failure now,
		// with GitHub's answer rather than a context error.
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			return err
		}
		if r.sleep(ctx, wait) != nil {
			return err
		}
	}
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

func sleepRetry(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
