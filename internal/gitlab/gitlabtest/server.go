// Package gitlabtest is an in-memory GitLab REST API v4, as much of it as
// a merge request's notes, labels and commit statuses need, answering as
// GitLab documents: a token in PRIVATE-TOKEN (401 without a known one),
// pages of notes with X-Page, X-Next-Page, X-Total-Pages (per_page at most
// 100), 400 for a note over 1,000,000 characters, 403 for an edit of
// another user's note; and a repository's files at a commit (the raw file,
// 404 for a file or a commit that is not there, without a token for a
// public project). It serves concurrent requests one at a time, as
// the last write of a note wins on GitLab.
package gitlabtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// MaxNoteLen is GitLab's limit on a note's body, in characters.
const MaxNoteLen = 1_000_000

// Note is a note as the server keeps it.
type Note struct {
	ID     int64
	Author string
	Body   string
	System bool
}

// Status is a commit status as it was set.
type Status struct {
	SHA, Name, State, Description, TargetURL, Pipeline string
}

// Server is one project's merge request on an in-memory GitLab.
type Server struct {
	URL string // the API's root: CI_API_V4_URL
	// Project and MergeRequest are the one project and merge request
	// there are (other paths answer 404).
	Project      string
	MergeRequest int

	mu       sync.Mutex
	tokens   map[string]string // token → username
	notes    []Note
	nextID   int64
	labels   []string
	statuses []Status
	calls    []string
	tooLong  int
	// commits are the repository's commits: SHA → path → content.
	commits map[string]map[string]string
	public  bool
}

// New starts a server for merge request mr of project; it stops with the
// test.
func New(t testing.TB, project string, mr int) *Server {
	s := &Server{Project: project, MergeRequest: mr, tokens: map[string]string{}, nextID: 1000}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/api/v4"
	return s
}

// AddToken lets token in as username.
func (s *Server) AddToken(token, username string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens[token] = username
}

// AddCommit adds a commit of the project's repository with its files
// (path from the root → content).
func (s *Server) AddCommit(sha string, files map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.commits == nil {
		s.commits = map[string]map[string]string{}
	}
	s.commits[sha] = files
}

// SetPublic makes the project public: its repository is read without a
// token.
func (s *Server) SetPublic(public bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.public = public
}

// AddNote adds a note as author wrote it (another job, a person).
func (s *Server) AddNote(author, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(author, body, false).ID
}

// AddSystemNote adds a note GitLab writes itself ("added 1 commit").
func (s *Server) AddSystemNote(body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.add("root", body, true)
}

func (s *Server) add(author, body string, system bool) Note {
	n := Note{ID: s.nextID, Author: author, Body: body, System: system}
	s.nextID++
	s.notes = append(s.notes, n)
	return n
}

// Notes are the merge request's notes, oldest first.
func (s *Server) Notes() []Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.notes)
}

// NotesBy are the notes author wrote whose body starts with prefix.
func (s *Server) NotesBy(author, prefix string) []Note {
	var out []Note
	for _, n := range s.Notes() {
		if n.Author == author && strings.HasPrefix(n.Body, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// Labels are the merge request's labels.
func (s *Server) Labels() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.labels)
}

// Statuses are the commit statuses set, in order.
func (s *Server) Statuses() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.statuses)
}

// Calls are the requests served, "METHOD path" (with the query), in order.
func (s *Server) Calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// TooLong counts the notes refused as over the limit.
func (s *Server) TooLong() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tooLong
}

var (
	notesPath   = regexp.MustCompile(`^/api/v4/projects/([^/]+)/merge_requests/(\d+)/notes$`)
	notePath    = regexp.MustCompile(`^/api/v4/projects/([^/]+)/merge_requests/(\d+)/notes/(\d+)$`)
	mrPath      = regexp.MustCompile(`^/api/v4/projects/([^/]+)/merge_requests/(\d+)$`)
	statusPath  = regexp.MustCompile(`^/api/v4/projects/([^/]+)/statuses/([0-9a-f]+)$`)
	filePath    = regexp.MustCompile(`^/api/v4/projects/([^/]+)/repository/files/([^/]+)/raw$`)
	commitPath  = regexp.MustCompile(`^/api/v4/projects/([^/]+)/repository/commits/([^/]+)$`)
	errNotFound = map[string]string{"message": "404 Not found"}
)

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	call := r.Method + " " + r.URL.EscapedPath()
	if r.URL.RawQuery != "" {
		call += "?" + r.URL.RawQuery
	}
	s.calls = append(s.calls, call)
	if r.Header.Get("PRIVATE-TOKEN") == "" && s.public && s.repository(w, r) {
		return
	}
	user, ok := s.tokens[r.Header.Get("PRIVATE-TOKEN")]
	if !ok || r.Header.Get("PRIVATE-TOKEN") == "" {
		answer(w, http.StatusUnauthorized, map[string]string{"message": "401 Unauthorized"})
		return
	}
	p := r.URL.EscapedPath()
	if s.repository(w, r) {
		return
	}
	if p == "/api/v4/user" && r.Method == http.MethodGet {
		answer(w, http.StatusOK, map[string]any{"id": 1, "username": user, "name": user})
		return
	}
	if m := notesPath.FindStringSubmatch(p); m != nil && s.ours(m[1], m[2]) {
		switch r.Method {
		case http.MethodGet:
			s.listNotes(w, r)
		case http.MethodPost:
			body, ok := s.noteBody(w, r)
			if ok {
				answer(w, http.StatusCreated, noteJSON(s.add(user, body, false)))
			}
		default:
			answer(w, http.StatusMethodNotAllowed, nil)
		}
		return
	}
	if m := notePath.FindStringSubmatch(p); m != nil && s.ours(m[1], m[2]) {
		id, _ := strconv.ParseInt(m[3], 10, 64)
		i := slices.IndexFunc(s.notes, func(n Note) bool { return n.ID == id })
		if i < 0 {
			answer(w, http.StatusNotFound, errNotFound)
			return
		}
		switch r.Method {
		case http.MethodGet:
			answer(w, http.StatusOK, noteJSON(s.notes[i]))
		case http.MethodPut:
			if s.notes[i].Author != user {
				answer(w, http.StatusForbidden, map[string]string{"message": "403 Forbidden"})
				return
			}
			if body, ok := s.noteBody(w, r); ok {
				s.notes[i].Body = body
				answer(w, http.StatusOK, noteJSON(s.notes[i]))
			}
		case http.MethodDelete:
			if s.notes[i].Author != user {
				answer(w, http.StatusForbidden, map[string]string{"message": "403 Forbidden"})
				return
			}
			s.notes = slices.Delete(s.notes, i, i+1)
			w.WriteHeader(http.StatusNoContent)
		default:
			answer(w, http.StatusMethodNotAllowed, nil)
		}
		return
	}
	if m := mrPath.FindStringSubmatch(p); m != nil && s.ours(m[1], m[2]) {
		switch r.Method {
		case http.MethodGet:
		case http.MethodPut:
			var in map[string]string
			if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
				answer(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
				return
			}
			for _, l := range split(in["add_labels"]) {
				if !slices.Contains(s.labels, l) {
					s.labels = append(s.labels, l)
				}
			}
			for _, l := range split(in["remove_labels"]) {
				s.labels = slices.DeleteFunc(s.labels, func(x string) bool { return x == l })
			}
		default:
			answer(w, http.StatusMethodNotAllowed, nil)
			return
		}
		answer(w, http.StatusOK, map[string]any{"iid": s.MergeRequest, "labels": append([]string{}, s.labels...)})
		return
	}
	if m := statusPath.FindStringSubmatch(p); m != nil && m[1] == s.Project && r.Method == http.MethodPost {
		var in map[string]string
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			answer(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		switch in["state"] {
		case "pending", "running", "success", "failed", "canceled":
		default:
			answer(w, http.StatusBadRequest, map[string]string{"error": "state does not have a valid value"})
			return
		}
		st := Status{SHA: m[2], Name: in["name"], State: in["state"], Description: in["description"], TargetURL: in["target_url"], Pipeline: in["pipeline_id"]}
		s.statuses = append(s.statuses, st)
		answer(w, http.StatusCreated, map[string]any{"sha": st.SHA, "name": st.Name, "status": st.State})
		return
	}
	answer(w, http.StatusNotFound, errNotFound)
}

// repository answers a read of the repository (a raw file at a ref, a
// commit) as GitLab does, telling whether r was one.
func (s *Server) repository(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.EscapedPath()
	if r.Method != http.MethodGet {
		return false
	}
	if m := filePath.FindStringSubmatch(p); m != nil && m[1] == s.Project {
		file, err := url.PathUnescape(m[2])
		files, ok := s.commits[r.URL.Query().Get("ref")]
		switch {
		case err != nil || r.URL.Query().Get("ref") == "":
			answer(w, http.StatusBadRequest, map[string]string{"error": "ref is missing"})
		case !ok:
			answer(w, http.StatusNotFound, map[string]string{"message": "404 Commit Not Found"})
		default:
			content, ok := files[file]
			if !ok {
				answer(w, http.StatusNotFound, map[string]string{"message": "404 File Not Found"})
				break
			}
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte(content))
		}
		return true
	}
	if m := commitPath.FindStringSubmatch(p); m != nil && m[1] == s.Project {
		if _, ok := s.commits[m[2]]; !ok {
			answer(w, http.StatusNotFound, map[string]string{"message": "404 Commit Not Found"})
			return true
		}
		answer(w, http.StatusOK, map[string]any{"id": m[2]})
		return true
	}
	return false
}

func (s *Server) ours(project, mr string) bool {
	return project == s.Project && mr == strconv.Itoa(s.MergeRequest)
}

// listNotes answers a page of notes as GitLab pages: per_page (default 20,
// at most 100), page from 1, and the pagination headers.
func (s *Server) listNotes(w http.ResponseWriter, r *http.Request) {
	per, err := strconv.Atoi(r.URL.Query().Get("per_page"))
	if err != nil || per < 1 {
		per = 20
	}
	per = min(per, 100)
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	notes := slices.Clone(s.notes)
	if r.URL.Query().Get("sort") != "asc" {
		slices.Reverse(notes)
	}
	pages := max((len(notes)+per-1)/per, 1)
	from, to := min((page-1)*per, len(notes)), min(page*per, len(notes))
	h := w.Header()
	h.Set("X-Page", strconv.Itoa(page))
	h.Set("X-Per-Page", strconv.Itoa(per))
	h.Set("X-Total", strconv.Itoa(len(notes)))
	h.Set("X-Total-Pages", strconv.Itoa(pages))
	h.Set("X-Next-Page", "")
	if page < pages {
		h.Set("X-Next-Page", strconv.Itoa(page+1))
	}
	h.Set("X-Prev-Page", "")
	if page > 1 {
		h.Set("X-Prev-Page", strconv.Itoa(page-1))
	}
	out := make([]map[string]any, 0, to-from)
	for _, n := range notes[from:to] {
		out = append(out, noteJSON(n))
	}
	answer(w, http.StatusOK, out)
}

// noteBody reads a note's body, answering 400 when it is missing or over
// the limit.
func (s *Server) noteBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	var in struct {
		Body *string `json:"body"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Body == nil {
		answer(w, http.StatusBadRequest, map[string]string{"error": "body is missing"})
		return "", false
	}
	if n := utf8.RuneCountInString(*in.Body); n > MaxNoteLen {
		s.tooLong++
		answer(w, http.StatusBadRequest, map[string]any{"message": map[string][]string{"note": {fmt.Sprintf("is too long (maximum is %d characters)", MaxNoteLen)}}})
		return "", false
	}
	return *in.Body, true
}

func noteJSON(n Note) map[string]any {
	return map[string]any{"id": n.ID, "body": n.Body, "system": n.System, "noteable_type": "MergeRequest",
		"author": map[string]any{"username": n.Author, "name": n.Author}}
}

func split(s string) []string {
	var out []string
	for _, l := range strings.Split(s, ",") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if v != nil {
		_ = json.NewEncoder(w).Encode(v)
	}
}
