package githubtest

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
)

// SetFile stores a file of the repository as commit has it, for the
// contents API; content nil removes it. The commit exists from then on.
func (s *Server) SetFile(commit, path string, content []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	files := s.commit(commit)
	if content == nil {
		delete(files, path)
		return
	}
	files[path] = content
}

// AddCommit makes a commit known, with no files.
func (s *Server) AddCommit(commit string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.commit(commit)
}

// commit returns the files of commit, making the commit known; s.mu held.
func (s *Server) commit(commit string) map[string][]byte {
	if s.files == nil {
		s.files = map[string]map[string][]byte{}
	}
	if s.files[commit] == nil {
		s.files[commit] = map[string][]byte{}
	}
	return s.files[commit]
}

// routeRepo answers the repository endpoints besides issues: a commit
// (GET /repos/{o}/{r}/commits/{ref}) and a file's contents (GET
// /repos/{o}/{r}/contents/{path}?ref=). ok is false for other paths.
func (s *Server) routeRepo(r *http.Request, parts []string) (status int, body any, header map[string]string, ok bool) {
	if r.Method != http.MethodGet || len(parts) < 5 {
		return 0, nil, nil, false
	}
	switch parts[3] {
	case "commits":
		if _, found := s.files[parts[4]]; !found || len(parts) != 5 {
			return http.StatusUnprocessableEntity, apiError("No commit found for SHA: "+parts[4], "get-a-commit"), nil, true
		}
		if strings.Contains(r.Header.Get("Accept"), "sha") {
			return http.StatusOK, rawBody(parts[4]), nil, true
		}
		return http.StatusOK, answer{"sha": parts[4]}, nil, true
	case "contents":
		path := strings.Join(parts[4:], "/")
		ref := r.URL.Query().Get("ref")
		files, found := s.files[ref]
		if !found {
			return http.StatusNotFound, apiError("No commit found for the ref "+ref, "get-repository-content"), nil, true
		}
		content, found := files[path]
		if !found {
			return http.StatusNotFound, apiError("Not Found", "get-repository-content"), nil, true
		}
		return http.StatusOK, answer{
			"type": "file", "encoding": "base64", "size": len(content), "name": path[strings.LastIndex(path, "/")+1:],
			"path": path, "sha": fmt.Sprintf("%040x", len(content)),
			"content": base64.StdEncoding.EncodeToString(content),
		}, nil, true
	}
	return 0, nil, nil, false
}

// rawBody is an answer written as it is rather than as JSON.
type rawBody string
