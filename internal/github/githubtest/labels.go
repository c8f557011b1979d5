package githubtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A pull request's labels, as the issues API serves them: list, add (a
// label the repository does not have yet is created), remove one.

// Labels are pull request n's labels, sorted.
func (s *Server) Labels(n int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.labels[n])
	sort.Strings(out)
	return out
}

// SetLabels gives pull request n these labels, as a person would.
func (s *Server) SetLabels(n int, labels ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.labels == nil {
		s.labels = map[int][]string{}
	}
	s.labels[n] = slices.Clone(labels)
}

func (s *Server) routeLabels(r *http.Request, parts []string) (int, any, map[string]string) {
	n, err := strconv.Atoi(parts[4])
	if err != nil || !s.issues[n] {
		return http.StatusNotFound, apiError("Not Found", "list-labels-for-an-issue"), nil
	}
	if s.labels == nil {
		s.labels = map[int][]string{}
	}
	if (r.Method == http.MethodPost || r.Method == http.MethodDelete) && s.readOnly {
		return http.StatusForbidden, apiError("Resource not accessible by integration", "add-labels-to-an-issue"), nil
	}
	switch {
	case len(parts) == 6 && r.Method == http.MethodGet:
		return http.StatusOK, s.labelList(n), nil
	case len(parts) == 6 && r.Method == http.MethodPost:
		// GitHub takes {"labels": [...]} or the bare array.
		var raw json.RawMessage
		var in struct {
			Labels []string `json:"labels"`
		}
		if err := json.NewDecoder(r.Body).Decode(&raw); err != nil ||
			(json.Unmarshal(raw, &in.Labels) != nil && json.Unmarshal(raw, &in) != nil) {
			return http.StatusBadRequest, apiError("Problems parsing JSON", "add-labels-to-an-issue"), nil
		}
		for _, l := range in.Labels {
			if !slices.Contains(s.labels[n], l) {
				s.labels[n] = append(s.labels[n], l)
			}
		}
		return http.StatusOK, s.labelList(n), nil
	case len(parts) >= 7 && r.Method == http.MethodDelete:
		// A name with a slash arrives escaped, and the path is decoded.
		name := strings.Join(parts[6:], "/")
		i := slices.Index(s.labels[n], name)
		if i < 0 {
			return http.StatusNotFound, apiError("Label does not exist", "remove-a-label-from-an-issue"), nil
		}
		s.labels[n] = slices.Delete(s.labels[n], i, i+1)
		return http.StatusOK, s.labelList(n), nil
	}
	return http.StatusNotFound, apiError("Not Found", ""), nil
}

func (s *Server) labelList(n int) []answer {
	out := []answer{}
	for _, l := range s.labels[n] {
		out = append(out, answer{"name": l})
	}
	return out
}
