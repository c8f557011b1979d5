// Package gitlab is the GitLab side of publishing: publish's store over
// GitLab's REST API v4 (a merge request's notes and labels), the user the
// token writes as, a file at a commit (the base commit's config when the
// clone lacks that commit), a commit status per environment, the Code
// Quality report, and what a GitLab CI job says of itself (its predefined
// variables and the OWNERSHIP_CHECK_<INPUT> variables). What the note says,
// how sections merge and which note is ours are publish's.
package gitlab

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
)

// Terms are GitLab's words in the note's prose (and the job log's): the
// change under review is a merge request, a section was written by a job,
// and a run's details are in its job log.
var Terms = report.Terms{Change: "merge request", Run: "job", Platform: "GitLab", Comment: "note", Details: "job log"}

// MaxNoteLen is GitLab's limit on a note's body, in characters: a longer
// one is refused with 400. publish folds to it in bytes, which holds for
// characters too.
const MaxNoteLen = 1_000_000

// perPage is the most notes GitLab gives on one page.
const perPage = 100

// Store is publish's store on GitLab: merge request MergeRequest (its IID,
// the !N people see) of Project, its notes and labels. Notes cannot be
// minimized, so it is no publish.Hider: hide-and-new keeps the old note.
type Store struct {
	Client *Client
	// Project is the merge request's project: its ID or full path.
	Project      string
	MergeRequest int
	// WebURL is the merge request's page, for a note's URL; empty: notes
	// have none.
	WebURL string
}

var _ publish.Store = (*Store)(nil)

func (s *Store) String() string { return fmt.Sprintf("merge request !%d", s.MergeRequest) }

func (s *Store) mrPath() string {
	return fmt.Sprintf("%s/merge_requests/%d", projectPath(s.Project), s.MergeRequest)
}

// note is a merge request note as the API answers it.
type note struct {
	ID     int64  `json:"id"`
	Body   string `json:"body"`
	System bool   `json:"system"`
	Author struct {
		Username string `json:"username"`
	} `json:"author"`
}

func (s *Store) commentOf(n note) publish.Comment {
	c := publish.Comment{ID: n.ID, Author: n.Author.Username, Body: n.Body}
	if s.WebURL != "" {
		c.URL = fmt.Sprintf("%s#note_%d", s.WebURL, n.ID)
	}
	return c
}

// ListComments is one page of the merge request's notes, oldest first,
// system notes ("added 1 commit") left out; next is GitLab's X-Next-Page.
func (s *Store) ListComments(ctx context.Context, page int) ([]publish.Comment, int, error) {
	q := url.Values{"per_page": {strconv.Itoa(perPage)}, "page": {strconv.Itoa(max(page, 1))}, "sort": {"asc"}, "order_by": {"created_at"}}
	var notes []note
	ans, err := s.Client.do(ctx, http.MethodGet, s.mrPath()+"/notes", q, nil, &notes)
	if err != nil {
		return nil, 0, err
	}
	var out []publish.Comment
	for _, n := range notes {
		if !n.System {
			out = append(out, s.commentOf(n))
		}
	}
	return out, nextPage(ans), nil
}

// nextPage reads X-Next-Page: empty on the last page.
func nextPage(ans answer) int {
	n, err := strconv.Atoi(strings.TrimSpace(ans.header.Get("X-Next-Page")))
	if err != nil || n < 1 {
		return 0
	}
	return n
}

func (s *Store) CreateComment(ctx context.Context, body string) (publish.Comment, error) {
	var n note
	if _, err := s.Client.do(ctx, http.MethodPost, s.mrPath()+"/notes", nil, map[string]string{"body": body}, &n); err != nil {
		return publish.Comment{}, err
	}
	return s.commentOf(n), nil
}

func (s *Store) EditComment(ctx context.Context, id int64, body string) error {
	_, err := s.Client.do(ctx, http.MethodPut, fmt.Sprintf("%s/notes/%d", s.mrPath(), id), nil, map[string]string{"body": body}, nil)
	return err
}

func (s *Store) DeleteComment(ctx context.Context, id int64) error {
	_, err := s.Client.do(ctx, http.MethodDelete, fmt.Sprintf("%s/notes/%d", s.mrPath(), id), nil, nil, nil)
	return err
}

// ListLabels is the merge request's labels, all on one page: GitLab
// answers them with the merge request.
func (s *Store) ListLabels(ctx context.Context, _ int) ([]string, int, error) {
	var mr struct {
		Labels []string `json:"labels"`
	}
	if _, err := s.Client.do(ctx, http.MethodGet, s.mrPath(), nil, nil, &mr); err != nil {
		return nil, 0, err
	}
	return mr.Labels, 0, nil
}

func (s *Store) AddLabels(ctx context.Context, names []string) error {
	_, err := s.Client.do(ctx, http.MethodPut, s.mrPath(), nil, map[string]string{"add_labels": strings.Join(names, ",")}, nil)
	return err
}

func (s *Store) RemoveLabel(ctx context.Context, name string) error {
	_, err := s.Client.do(ctx, http.MethodPut, s.mrPath(), nil, map[string]string{"remove_labels": name}, nil)
	return err
}

// Failure reads GitLab's answer: its status, a rate limit (429), and
// whether it is worth another attempt.
func (s *Store) Failure(err error) publish.Failure {
	f := publish.Failure{Status: statusOf(err)}
	f.RateLimited = f.Status == http.StatusTooManyRequests
	f.Transient, f.Wait = transient(err)
	return f
}

// User is the username the token writes notes as (GET /user): the only
// author whose marked note is ours.
func (c *Client) User(ctx context.Context) (string, error) {
	var u struct {
		Username string `json:"username"`
	}
	if _, err := c.do(ctx, http.MethodGet, "/user", nil, nil, &u); err != nil {
		return "", err
	}
	if u.Username == "" {
		return "", fmt.Errorf("GitLab API GET /user: no username in the answer")
	}
	return u.Username, nil
}
