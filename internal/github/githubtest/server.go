// Package githubtest is an in-memory GitHub REST API for tests: the issue
// comment endpoints, served under /api/v3 as GitHub Enterprise Server does,
// with the documented status codes and pagination, and optional latency so
// that concurrent writers really interleave.
package githubtest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// MaxBody is GitHub's limit on a comment body, in characters.
const MaxBody = 65536

// Comment is a stored issue comment.
type Comment struct {
	ID     int64
	Issue  int
	Body   string
	Author string
	// Minimized is the classifier a minimizeComment gave it ("" when
	// shown).
	Minimized string
}

// Call is one request the server answered.
type Call struct {
	Method string
	Path   string // below /api/v3
	Query  string
	Status int
}

// Server is the fake API. Its URL is what GITHUB_API_URL would be.
type Server struct {
	URL string
	// Token is the token requests must carry; empty accepts any.
	Token string
	// Login is who the token writes as (identity.go); empty:
	// "github-actions[bot]", the identity of a workflow's GITHUB_TOKEN.
	Login string
	// GraphQLURL is what GITHUB_GRAPHQL_URL would be.
	GraphQLURL string

	srv      *httptest.Server
	repo     string
	mu       sync.Mutex
	issues   map[int]bool
	comments []*Comment
	nextID   int64
	readOnly bool
	// files are the contents API's files by commit, then path (repo.go).
	files   map[string]map[string][]byte
	latency time.Duration
	calls   []Call
	// labels are each pull request's labels (labels.go).
	labels map[int][]string
	// intercept answers faults instead of handling (faults.go).
	intercept func(method, path string) *Fault
}

// New serves repository repo ("owner/name") with the given pull requests.
func New(t testing.TB, repo string, pulls ...int) *Server {
	s := &Server{repo: repo, issues: map[int]bool{}, nextID: 1000}
	for _, n := range pulls {
		s.issues[n] = true
	}
	mux := http.NewServeMux()
	mux.Handle("/api/v3/", http.StripPrefix("/api/v3", http.HandlerFunc(s.serve)))
	mux.HandleFunc("/api/graphql", s.serveGraphQL)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/api/v3"
	s.GraphQLURL = s.srv.URL + "/api/graphql"
	t.Cleanup(s.srv.Close)
	return s
}

// SetReadOnly makes writes answer 403 as for the read-only token of a pull
// request from a fork.
func (s *Server) SetReadOnly(ro bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readOnly = ro
}

// SetLatency delays each request by up to d before and after it takes
// effect.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// AddComment stores a comment as if someone had posted it.
func (s *Server) AddComment(issue int, author, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(issue, author, body).ID
}

// Comments returns the comments of an issue, oldest first.
func (s *Server) Comments(issue int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments {
		if c.Issue == issue {
			out = append(out, *c)
		}
	}
	return out
}

// Calls returns the requests answered so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

func (s *Server) add(issue int, author, body string) *Comment {
	s.nextID++
	c := &Comment{ID: s.nextID, Issue: issue, Body: body, Author: author}
	s.comments = append(s.comments, c)
	return c
}

func (s *Server) delay() {
	s.mu.Lock()
	d := s.latency
	s.mu.Unlock()
	if d > 0 {
		time.Sleep(rand.N(d))
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	s.delay()
	status, faulted := s.intercepted(w, r)
	if !faulted {
		status = s.handle(w, r)
	}
	s.mu.Lock()
	s.calls = append(s.calls, Call{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Status: status})
	s.mu.Unlock()
}

// handle applies the request under the lock, so that each request takes
// effect at one instant, and writes the answer after a delay.
func (s *Server) handle(w http.ResponseWriter, r *http.Request) int {
	s.mu.Lock()
	status, body, header := s.route(r)
	s.mu.Unlock()
	s.delay()
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-RateLimit-Limit", "5000")
	w.Header().Set("X-RateLimit-Remaining", "4999")
	w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	if raw, ok := body.(rawBody); ok {
		w.Header().Set("Content-Type", "application/vnd.github.sha")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(raw))
		return status
	}
	w.WriteHeader(status)
	if body != nil {
		_ = json.NewEncoder(w).Encode(body)
	}
	return status
}

type answer = map[string]any

func apiError(msg, doc string) answer {
	return answer{"message": msg, "documentation_url": "https://docs.github.com/rest/issues/comments#" + doc}
}

func (s *Server) route(r *http.Request) (int, any, map[string]string) {
	if s.Token != "" {
		auth := r.Header.Get("Authorization")
		if auth != "Bearer "+s.Token && auth != "token "+s.Token {
			return http.StatusUnauthorized, answer{"message": "Bad credentials", "documentation_url": "https://docs.github.com/rest"}, nil
		}
	}
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if r.URL.Path == "/user" && r.Method == http.MethodGet {
		return s.user()
	}
	if len(parts) >= 4 && parts[0] == "repos" && parts[1]+"/"+parts[2] == s.repo {
		if status, body, header, ok := s.routeRepo(r, parts); ok {
			return status, body, header
		}
	}
	if len(parts) < 5 || parts[0] != "repos" || parts[1]+"/"+parts[2] != s.repo || parts[3] != "issues" {
		return http.StatusNotFound, apiError("Not Found", ""), nil
	}
	if len(parts) >= 6 && parts[3] == "issues" && parts[5] == "labels" {
		return s.routeLabels(r, parts)
	}
	switch {
	case len(parts) == 6 && parts[5] == "comments":
		n, err := strconv.Atoi(parts[4])
		if err != nil || !s.issues[n] {
			return http.StatusNotFound, apiError("Not Found", "list-issue-comments"), nil
		}
		switch r.Method {
		case http.MethodGet:
			return s.list(r, n)
		case http.MethodPost:
			return s.create(r, n)
		}
	case len(parts) == 6 && parts[4] == "comments":
		id, err := strconv.ParseInt(parts[5], 10, 64)
		if err != nil {
			return http.StatusNotFound, apiError("Not Found", ""), nil
		}
		switch r.Method {
		case http.MethodPatch:
			return s.edit(r, id)
		case http.MethodDelete:
			return s.delete(id)
		}
	}
	return http.StatusNotFound, apiError("Not Found", ""), nil
}

// list pages as GitHub does: per_page defaults to 30 and is at most 100,
// and a Link header points at the next and last pages.
func (s *Server) list(r *http.Request, issue int) (int, any, map[string]string) {
	q := r.URL.Query()
	perPage, page := 30, 1
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		perPage = min(v, 100)
	}
	if v, err := strconv.Atoi(q.Get("page")); err == nil && v > 0 {
		page = v
	}
	var all []*Comment
	for _, c := range s.comments {
		if c.Issue == issue {
			all = append(all, c)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	last := max((len(all)+perPage-1)/perPage, 1)
	out := []answer{}
	for i := (page - 1) * perPage; i < min(page*perPage, len(all)); i++ {
		out = append(out, s.json(all[i]))
	}
	header := map[string]string{}
	if page < last {
		link := func(p int) string {
			u := url.URL{Scheme: "http", Host: r.Host, Path: "/api/v3" + r.URL.Path}
			v := url.Values{"page": {strconv.Itoa(p)}, "per_page": {strconv.Itoa(perPage)}}
			u.RawQuery = v.Encode()
			return u.String()
		}
		header["Link"] = fmt.Sprintf(`<%s>; rel="next", <%s>; rel="last"`, link(page+1), link(last))
	}
	return http.StatusOK, out, header
}

func (s *Server) create(r *http.Request, issue int) (int, any, map[string]string) {
	if s.readOnly {
		return http.StatusForbidden, apiError("Resource not accessible by integration", "create-an-issue-comment"), nil
	}
	body, code, ans := readBody(r, "create-an-issue-comment")
	if code != 0 {
		return code, ans, nil
	}
	c := s.add(issue, s.login(), body)
	return http.StatusCreated, s.json(c), map[string]string{"Location": fmt.Sprintf("%s/repos/%s/issues/comments/%d", s.URL, s.repo, c.ID)}
}

func (s *Server) edit(r *http.Request, id int64) (int, any, map[string]string) {
	c := s.byID(id)
	if c == nil {
		return http.StatusNotFound, apiError("Not Found", "update-an-issue-comment"), nil
	}
	if s.readOnly {
		return http.StatusForbidden, apiError("Resource not accessible by integration", "update-an-issue-comment"), nil
	}
	body, code, ans := readBody(r, "update-an-issue-comment")
	if code != 0 {
		return code, ans, nil
	}
	c.Body = body
	return http.StatusOK, s.json(c), nil
}

func (s *Server) delete(id int64) (int, any, map[string]string) {
	if s.byID(id) == nil {
		return http.StatusNotFound, apiError("Not Found", "delete-an-issue-comment"), nil
	}
	if s.readOnly {
		return http.StatusForbidden, apiError("Resource not accessible by integration", "delete-an-issue-comment"), nil
	}
	for i, c := range s.comments {
		if c.ID == id {
			s.comments = append(s.comments[:i], s.comments[i+1:]...)
			break
		}
	}
	return http.StatusNoContent, nil, nil
}

func (s *Server) byID(id int64) *Comment {
	for _, c := range s.comments {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// readBody reads {"body": "..."} and checks it as GitHub does.
func readBody(r *http.Request, doc string) (string, int, any) {
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		return "", http.StatusBadRequest, apiError("Problems parsing JSON", doc)
	}
	if in.Body == nil {
		return "", http.StatusUnprocessableEntity, answer{"message": "Invalid request.\n\n\"body\" wasn't supplied.", "documentation_url": "https://docs.github.com/rest/issues/comments#" + doc}
	}
	if utf8.RuneCountInString(*in.Body) > MaxBody {
		return "", http.StatusUnprocessableEntity, answer{
			"message": "Validation Failed",
			"errors": []answer{{"resource": "IssueComment", "code": "custom", "field": "body",
				"message": fmt.Sprintf("body is too long (maximum is %d characters)", MaxBody)}},
			"documentation_url": "https://docs.github.com/rest/issues/comments#" + doc,
		}
	}
	return *in.Body, 0, nil
}

func (s *Server) json(c *Comment) answer {
	return answer{
		"id":                 c.ID,
		"node_id":            fmt.Sprintf("IC_%d", c.ID),
		"url":                fmt.Sprintf("%s/repos/%s/issues/comments/%d", s.URL, s.repo, c.ID),
		"html_url":           fmt.Sprintf("https://github.example/%s/pull/%d#issuecomment-%d", s.repo, c.Issue, c.ID),
		"issue_url":          fmt.Sprintf("%s/repos/%s/issues/%d", s.URL, s.repo, c.Issue),
		"body":               c.Body,
		"user":               answer{"login": c.Author, "type": "Bot"},
		"author_association": "NONE",
		"created_at":         "2024-05-01T10:00:00Z",
		"updated_at":         "2024-05-01T10:00:00Z",
	}
}
