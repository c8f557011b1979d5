package github

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/publish"
)

// writes matches the requests that change comments.
func writes(method string) bool { return method == http.MethodPost || method == http.MethodPatch }

// faultTimes answers fault to the first n requests that match.
func faultTimes(n int, match func(method, path string) bool, fault func() *githubtest.Fault) func(string, string) *githubtest.Fault {
	var left atomic.Int64
	left.Store(int64(n))
	return func(method, path string) *githubtest.Fault {
		if match(method, path) && left.Add(-1) >= 0 {
			return fault()
		}
		return nil
	}
}

func markedComments(srv *githubtest.Server) []githubtest.Comment {
	var out []githubtest.Comment
	for _, c := range srv.Comments(pr) {
		if strings.HasPrefix(c.Body, publish.CommentMarker) {
			out = append(out, c)
		}
	}
	return out
}

// TestStickyTransientGitHubFaults: a secondary rate limit (403 with
// Retry-After) or a few 502s on the way do not cost the comment.
func TestStickyTransientGitHubFaults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		intercept func(string, string) *githubtest.Fault
	}{
		{"secondary rate limit on the first write", faultTimes(1, func(m, _ string) bool { return writes(m) },
			func() *githubtest.Fault { return githubtest.SecondaryRateLimit(1) })},
		{"502 on the first two requests", faultTimes(2, func(string, string) bool { return true }, githubtest.BadGateway)},
		{"502 on the first edit", faultTimes(1, func(m, _ string) bool { return m == http.MethodPatch }, githubtest.BadGateway)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			srv := githubtest.New(t, "acme/shop", pr)
			if _, err := upsert(ctx, newSticky(t, srv, ""), envReport("dev", 1)); err != nil {
				t.Fatal(err)
			}
			srv.SetIntercept(tc.intercept)
			if _, err := upsert(ctx, newSticky(t, srv, ""), envReport("prod", 1)); err != nil {
				t.Fatalf("want the comment written despite the fault, got %v", err)
			}
			cs := markedComments(srv)
			if len(cs) != 1 || !strings.Contains(cs[0].Body, "env=dev:begin") || !strings.Contains(cs[0].Body, "env=prod:begin") {
				t.Fatalf("want one comment with both sections, got %d comments: %+v", len(cs), cs)
			}
		})
	}
}

// TestStickyPersistentGitHubFaults: when GitHub keeps failing the job says
// it could not post (an error naming the answer) within a bounded number of
// requests, rather than hanging or pretending.
func TestStickyPersistentGitHubFaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault func() *githubtest.Fault
		want  string
	}{
		{"502 on every request", githubtest.BadGateway, "502"},
		{"secondary rate limit longer than the budget", func() *githubtest.Fault { return githubtest.SecondaryRateLimit(600) }, "rate limited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			srv := githubtest.New(t, "acme/shop", pr)
			srv.SetIntercept(func(string, string) *githubtest.Fault { return tc.fault() })
			_, err := upsert(ctx, newSticky(t, srv, ""), envReport("prod", 1))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an error saying %q, got %v", tc.want, err)
			}
			if errors.Is(err, publish.ErrCannotComment) {
				t.Errorf("a GitHub failure is not a missing permission: %v", err)
			}
			if n := len(srv.Calls()); n > 5 {
				t.Errorf("%d requests: retries must be bounded", n)
			}
			t.Logf("%d requests; %v", len(srv.Calls()), err)
		})
	}
}

// TestStickyCommentDeletedBetweenReadAndEdit: someone deletes the comment
// after this job listed it and before its edit: the job writes a new one.
func TestStickyCommentDeletedBetweenReadAndEdit(t *testing.T) {
	ctx := context.Background()
	srv := githubtest.New(t, "acme/shop", pr)
	if _, err := upsert(ctx, newSticky(t, srv, ""), envReport("dev", 1)); err != nil {
		t.Fatal(err)
	}
	id := markedComments(srv)[0].ID
	var once sync.Once
	srv.SetIntercept(func(method, path string) *githubtest.Fault {
		if method == http.MethodPatch {
			once.Do(func() { srv.DeleteComment(id) })
		}
		return nil
	})
	if _, err := upsert(ctx, newSticky(t, srv, ""), envReport("prod", 1)); err != nil {
		t.Fatal(err)
	}
	cs := markedComments(srv)
	if len(cs) != 1 || cs[0].ID == id || !strings.Contains(cs[0].Body, "env=prod:begin") {
		t.Fatalf("want one new comment with prod's section, got %+v", cs)
	}
}

// TestStickyConcurrentMatrixUnderFaults: six matrix jobs write at once
// through latency, 502s and a secondary rate limit. Every job either has
// its section in the one comment left, or returned an error (and would say
// so in its job summary); no section is silently lost.
func TestStickyConcurrentMatrixUnderFaults(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := githubtest.New(t, "acme/shop", pr)
	srv.SetLatency(20 * time.Millisecond)
	var n atomic.Int64
	srv.SetIntercept(func(method, path string) *githubtest.Fault {
		switch i := n.Add(1); {
		case i%7 == 0:
			return githubtest.BadGateway()
		case i == 5:
			return githubtest.SecondaryRateLimit(1)
		}
		return nil
	})
	envs := []string{"dev", "qa", "staging", "prod-eu", "prod-us", "prod-ap"}
	errs := make([]error, len(envs))
	var wg sync.WaitGroup
	for i, env := range envs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newSticky(t, srv, "")
			s.Settle = 150 * time.Millisecond
			_, errs[i] = upsert(ctx, s, envReport(env, i))
		}()
	}
	wg.Wait()
	cs := markedComments(srv)
	if len(cs) != 1 {
		for _, c := range cs {
			t.Logf("comment %d: %s", c.ID, sectionsOf(c.Body))
		}
		t.Fatalf("want one marked comment left, got %d; errors %v", len(cs), errs)
	}
	for i, env := range envs {
		in := strings.Contains(cs[0].Body, "env="+env+":begin")
		switch {
		case errs[i] != nil:
			t.Logf("%s could not post: %v", env, errs[i])
		case !in:
			t.Errorf("%s reported success but its section is missing", env)
		}
	}
	t.Logf("%d requests", len(srv.Calls()))
}

func sectionsOf(body string) []string {
	var out []string
	for _, part := range strings.Split(body, "env=")[1:] {
		if i := strings.Index(part, ":begin"); i > 0 {
			out = append(out, part[:i])
		}
	}
	return out
}
