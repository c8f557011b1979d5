package github

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"time"

	gh "github.com/google/go-github/v66/github"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// Issues is the part of the GitHub REST API the sticky comment needs;
// *github.IssuesService implements it.
type Issues interface {
	ListComments(ctx context.Context, owner, repo string, number int, opts *gh.IssueListCommentsOptions) ([]*gh.IssueComment, *gh.Response, error)
	CreateComment(ctx context.Context, owner, repo string, number int, comment *gh.IssueComment) (*gh.IssueComment, *gh.Response, error)
	EditComment(ctx context.Context, owner, repo string, commentID int64, comment *gh.IssueComment) (*gh.IssueComment, *gh.Response, error)
	DeleteComment(ctx context.Context, owner, repo string, commentID int64) (*gh.Response, error)
}

// DefaultSettle bounds the time between another job reading the comment
// and its edit landing on GitHub; see Sticky.Settle.
const DefaultSettle = 5 * time.Second

// Sticky is the one comment of a pull request that the jobs of a workflow
// share, found again by Marker at the start of its body, among the
// comments Author wrote: the marker in anyone else's comment is ignored,
// and that comment is never edited or deleted.
//
// GitHub has no conditional update of a comment, so two jobs that read the
// same body and each add their section would lose one of them. Every
// writer therefore reads again Settle after its write (by then any edit
// based on a body read before the write has landed) and writes again if
// its section is missing. The newest marked comment is the one in use;
// a writer that created a duplicate deletes it once its section is in the
// newest one.
type Sticky struct {
	Issues Issues
	Owner  string
	Repo   string
	Number int
	Marker string
	// Author is the login the token writes as (Author finds it); empty:
	// ActionsBot.
	Author string
	// Settle is the wait before checking a write (0: DefaultSettle); a
	// random part of up to half of it is added so that writers spread out.
	Settle time.Duration
	// Attempts bounds the writes (0: 5).
	Attempts int
	// NoCreate leaves a pull request without a comment as it is: Update
	// edits an existing one only (comment: on-findings, all clear).
	NoCreate bool
}

// Outcome says what Update or Post did.
type Outcome string

const (
	Created   Outcome = "created"
	Updated   Outcome = "updated"
	Unchanged Outcome = "unchanged"
	// NotCreated: there was no comment, and NoCreate kept it so.
	NotCreated Outcome = "not created"
)

// Result is the comment written.
type Result struct {
	ID      int64
	URL     string
	Outcome Outcome
	// Writes counts the creates and edits, more than one when a concurrent
	// job dropped this job's section and it was written again.
	Writes int
}

// Update merges this job's part into the comment: merge gets the current
// body ("" when there is no comment yet) and returns the new one; present
// tells whether a body already holds this job's part. It returns when the
// newest marked comment holds the part after a settle time, or an error
// (wrapping ErrCannotComment when the token may not write).
func (s *Sticky) Update(ctx context.Context, merge func(old string) string, present func(body string) bool) (res Result, err error) {
	var created int64
	defer func() {
		if err != nil && created != 0 {
			s.dropDuplicate(ctx, created)
		}
	}()
	var failed int // transient failures of writes
	attempts := s.Attempts
	if attempts <= 0 {
		attempts = 5
	}
	for {
		comments, err := s.find(ctx)
		if err != nil {
			return res, err
		}
		var cur *gh.IssueComment
		if len(comments) > 0 {
			cur = comments[len(comments)-1]
		}
		if cur != nil && present(cur.GetBody()) {
			res.ID, res.URL = cur.GetID(), cur.GetHTMLURL()
			if res.Outcome == "" {
				res.Outcome = Unchanged
			}
			if created != 0 && created != cur.GetID() {
				if _, err := s.api().DeleteComment(ctx, s.Owner, s.Repo, created); err != nil && statusOf(err) != http.StatusNotFound {
					return res, classify(fmt.Sprintf("deleting duplicate comment %d", created), err)
				}
			}
			return res, nil
		}
		if res.Writes >= attempts {
			return res, fmt.Errorf("pull request #%d: the comment lost this job's section %d times to concurrent jobs", s.Number, res.Writes)
		}

		if cur == nil && s.NoCreate {
			res.Outcome = NotCreated
			return res, nil
		}
		if cur == nil {
			c, _, err := s.Issues.CreateComment(ctx, s.Owner, s.Repo, s.Number, &gh.IssueComment{Body: gh.String(merge(""))})
			if err != nil {
				if s.againAfter(ctx, err, &failed) {
					continue
				}
				return res, classify(fmt.Sprintf("creating a comment on pull request #%d", s.Number), err)
			}
			created = c.GetID()
			res.Outcome = first(res.Outcome, Created)
			if login := c.GetUser().GetLogin(); login != "" && !strings.EqualFold(login, s.author()) {
				// The guess was wrong (Author could not ask): GitHub has
				// just said who the token is.
				s.Author = login
			}
		} else {
			body := merge(cur.GetBody())
			if body == cur.GetBody() {
				return res, fmt.Errorf("comment %d: merging did not add this job's section", cur.GetID())
			}
			_, _, err := s.Issues.EditComment(ctx, s.Owner, s.Repo, cur.GetID(), &gh.IssueComment{Body: gh.String(body)})
			switch {
			case statusOf(err) == http.StatusNotFound:
				// Deleted by a job cleaning up its duplicate: read again.
				res.Writes++
				continue
			case err != nil && s.againAfter(ctx, err, &failed):
				continue
			case err != nil:
				return res, classify(fmt.Sprintf("editing comment %d", cur.GetID()), err)
			}
			res.Outcome = first(res.Outcome, Updated)
		}
		res.Writes++
		if err := retry.Sleep(ctx, s.settle()); err != nil {
			return res, fmt.Errorf("waiting to check the comment: %w", err)
		}
	}
}

// dropDuplicate deletes the comment this job created when a newer marked
// comment is the one in use, for a job that gives up (it says so in its
// job summary): its comment would otherwise be left as a second report.
// The newest comment is never deleted: other jobs' sections are in it.
func (s *Sticky) dropDuplicate(ctx context.Context, created int64) {
	comments, err := s.find(ctx)
	if err != nil || len(comments) == 0 || comments[len(comments)-1].GetID() == created {
		return
	}
	if slices.ContainsFunc(comments, func(c *gh.IssueComment) bool { return c.GetID() == created }) {
		_, _ = s.api().DeleteComment(ctx, s.Owner, s.Repo, created)
	}
}

// Post creates a new comment, for `comment: new`.
func (s *Sticky) Post(ctx context.Context, body string) (Result, error) {
	c, _, err := s.api().CreateComment(ctx, s.Owner, s.Repo, s.Number, &gh.IssueComment{Body: gh.String(body)})
	if err != nil {
		return Result{}, classify(fmt.Sprintf("creating a comment on pull request #%d", s.Number), err)
	}
	return Result{ID: c.GetID(), URL: c.GetHTMLURL(), Outcome: Created, Writes: 1}, nil
}

// find lists every comment of the pull request (all pages) and returns the
// marked ones written by Author, oldest first.
func (s *Sticky) find(ctx context.Context) ([]*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	var marked []*gh.IssueComment
	for {
		page, resp, err := s.api().ListComments(ctx, s.Owner, s.Repo, s.Number, opts)
		if err != nil {
			return nil, classify(fmt.Sprintf("listing the comments of pull request #%d", s.Number), err)
		}
		for _, c := range page {
			if strings.EqualFold(c.GetUser().GetLogin(), s.author()) && strings.HasPrefix(strings.TrimSpace(c.GetBody()), s.Marker) {
				marked = append(marked, c)
			}
		}
		if resp == nil || resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	slices.SortStableFunc(marked, func(a, b *gh.IssueComment) int { return cmpID(a.GetID(), b.GetID()) })
	return marked, nil
}

func (s *Sticky) author() string {
	if s.Author == "" {
		return ActionsBot
	}
	return s.Author
}

func cmpID(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (s *Sticky) settle() time.Duration {
	d := s.Settle
	if d <= 0 {
		d = DefaultSettle
	}
	return d + rand.N(d/2+1)
}

func first(o, def Outcome) Outcome {
	if o == "" {
		return def
	}
	return o
}

// api is Issues with transient failures retried (retry.go), for the
// requests that carry no body merged from an earlier read.
func (s *Sticky) api() Issues { return retrying{Issues: s.Issues} }

// againAfter waits out a transient failure of a write and tells Update to
// start over from a fresh read. A write is never re-sent as it was: its
// body was merged from a read that other jobs' writes may have overtaken,
// and the settle check only covers writes that land soon after their read.
func (s *Sticky) againAfter(ctx context.Context, err error, failed *int) bool {
	ok, wait := again(*failed+1, err)
	if !ok || *failed+1 >= apiAttempts {
		return false
	}
	*failed++
	return retry.Fits(ctx, wait) && retry.Sleep(ctx, wait) == nil
}
