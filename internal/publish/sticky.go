package publish

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// DefaultSettle bounds the time between another job reading the comment
// and its edit landing on the platform (GitHub: ~0.5 s); see
// Sticky.Settle.
const DefaultSettle = 5 * time.Second

// Sticky is the one comment of a pull request that the jobs of a workflow
// share, found again by Marker at the start of its body, among the
// comments Author wrote: the marker in anyone else's comment is ignored,
// and that comment is never edited or deleted (anyone can write the
// marker, and a comment stays editable by whoever wrote it).
//
// A store has no conditional update of a comment (GitHub has none), so
// two jobs that read the same body and each add their section would lose
// one of them. Every writer therefore reads again Settle after its write
// (by then any edit based on a body read before the write has landed) and
// writes again if its section is missing. The newest marked comment is the one in use;
// a writer that created a duplicate deletes it once its section is in the
// newest one.
type Sticky struct {
	Store  Store
	Marker string
	// Author is the login the store writes as; empty: not known, so no
	// comment is taken for ours until a create answers who wrote it.
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
		var cur *Comment
		if len(comments) > 0 {
			cur = &comments[len(comments)-1]
		}
		if cur != nil && present(cur.Body) {
			res.ID, res.URL = cur.ID, cur.URL
			if res.Outcome == "" {
				res.Outcome = Unchanged
			}
			if created != 0 && created != cur.ID {
				if err := s.delete(ctx, created); err != nil && !notFound(s.Store, err) {
					return res, classify(s.Store, fmt.Sprintf("deleting duplicate comment %d", created), err)
				}
			}
			return res, nil
		}
		if res.Writes >= attempts {
			return res, fmt.Errorf("%s: the comment lost this job's section %d times to concurrent jobs", s.Store, res.Writes)
		}

		if cur == nil && s.NoCreate {
			res.Outcome = NotCreated
			return res, nil
		}
		if cur == nil {
			c, err := s.Store.CreateComment(ctx, merge(""))
			if err != nil {
				if s.againAfter(ctx, err, &failed) {
					continue
				}
				return res, classify(s.Store, fmt.Sprintf("creating a comment on %s", s.Store), err)
			}
			created = c.ID
			res.Outcome = first(res.Outcome, Created)
			if c.Author != "" && !strings.EqualFold(c.Author, s.Author) {
				// The guess was wrong (the identity could not be asked):
				// the platform has just said who the store writes as.
				s.Author = c.Author
			}
		} else {
			body := merge(cur.Body)
			if body == cur.Body {
				return res, fmt.Errorf("comment %d: merging did not add this job's section", cur.ID)
			}
			err := s.Store.EditComment(ctx, cur.ID, body)
			switch {
			case notFound(s.Store, err):
				// Deleted by a job cleaning up its duplicate: read again.
				res.Writes++
				continue
			case err != nil && s.againAfter(ctx, err, &failed):
				continue
			case err != nil:
				return res, classify(s.Store, fmt.Sprintf("editing comment %d", cur.ID), err)
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
	if err != nil || len(comments) == 0 || comments[len(comments)-1].ID == created {
		return
	}
	if slices.ContainsFunc(comments, func(c Comment) bool { return c.ID == created }) {
		_ = s.delete(ctx, created)
	}
}

// Post creates a new comment, for `comment: new`.
func (s *Sticky) Post(ctx context.Context, body string) (Result, error) {
	var c Comment
	err := retried(ctx, s.Store, func() (err error) {
		c, err = s.Store.CreateComment(ctx, body)
		return err
	})
	if err != nil {
		return Result{}, classify(s.Store, fmt.Sprintf("creating a comment on %s", s.Store), err)
	}
	return Result{ID: c.ID, URL: c.URL, Outcome: Created, Writes: 1}, nil
}

// find lists every comment of the pull request (all pages) and returns the
// marked ones written by Author, oldest first.
func (s *Sticky) find(ctx context.Context) ([]Comment, error) {
	var marked []Comment
	for page := 0; ; {
		var comments []Comment
		next := 0
		err := retried(ctx, s.Store, func() (err error) {
			comments, next, err = s.Store.ListComments(ctx, page)
			return err
		})
		if err != nil {
			return nil, classify(s.Store, fmt.Sprintf("listing the comments of %s", s.Store), err)
		}
		for _, c := range comments {
			if s.ours(c) {
				marked = append(marked, c)
			}
		}
		if next == 0 {
			break
		}
		page = next
	}
	slices.SortStableFunc(marked, func(a, b Comment) int { return cmpID(a.ID, b.ID) })
	return marked, nil
}

// ours tells the action's comment: marked, and written by its identity.
func (s *Sticky) ours(c Comment) bool {
	return s.Author != "" && strings.EqualFold(c.Author, s.Author) && strings.HasPrefix(strings.TrimSpace(c.Body), s.Marker)
}

// delete deletes comment id, again after transient failures.
func (s *Sticky) delete(ctx context.Context, id int64) error {
	return retried(ctx, s.Store, func() error { return s.Store.DeleteComment(ctx, id) })
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

// againAfter waits out a transient failure of a write and tells Update to
// start over from a fresh read. A write is never re-sent as it was: its
// body was merged from a read that other jobs' writes may have overtaken,
// and the settle check only covers writes that land soon after their read.
func (s *Sticky) againAfter(ctx context.Context, err error, failed *int) bool {
	ok, wait := again(s.Store, *failed+1, err)
	if !ok || *failed+1 >= apiAttempts {
		return false
	}
	*failed++
	return retry.Fits(ctx, wait) && retry.Sleep(ctx, wait) == nil
}
