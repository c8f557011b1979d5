package githubtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The token's identity as GitHub tells it: GET /user answers a user's
// token (a personal access token) and refuses an app's installation token,
// GITHUB_TOKEN included, with 403; GraphQL's viewer answers both, an
// app's as "<slug>[bot]".

func (s *Server) login() string {
	if s.Login == "" {
		return "github-actions[bot]"
	}
	return s.Login
}

func (s *Server) user() (int, any, map[string]string) {
	login := s.login()
	if strings.HasSuffix(login, "[bot]") {
		return http.StatusForbidden, answer{"message": "Resource not accessible by integration", "documentation_url": "https://docs.github.com/rest/users/users#get-the-authenticated-user"}, nil
	}
	return http.StatusOK, answer{"login": login, "type": "User", "id": 583231}, nil
}

// serveGraphQL answers the one query the action asks, the viewer's login,
// and records the call as POST /graphql; the intercept sees it as
// "api/graphql".
func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	status, faulted := s.intercepted(w, r)
	if !faulted {
		status = s.graphQL(w, r)
	}
	s.mu.Lock()
	s.calls = append(s.calls, Call{Method: r.Method, Path: "/graphql", Status: status})
	s.mu.Unlock()
}

func (s *Server) graphQL(w http.ResponseWriter, r *http.Request) int {
	s.mu.Lock()
	token, login := s.Token, s.login()
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	auth := r.Header.Get("Authorization")
	if token != "" && auth != "Bearer "+token && auth != "token "+token {
		w.WriteHeader(http.StatusUnauthorized)
		_ = json.NewEncoder(w).Encode(answer{"message": "Bad credentials"})
		return http.StatusUnauthorized
	}
	var q struct {
		Query     string         `json:"query"`
		Variables map[string]any `json:"variables"`
	}
	if r.Method == http.MethodPost && json.NewDecoder(r.Body).Decode(&q) == nil && strings.Contains(q.Query, "minimizeComment") {
		w.WriteHeader(http.StatusOK)
		_ = json.NewEncoder(w).Encode(s.minimize(q.Variables, login))
		return http.StatusOK
	}
	if !strings.Contains(q.Query, "viewer") {
		w.WriteHeader(http.StatusOK)
		_ = json.NewEncoder(w).Encode(answer{"errors": []answer{{"message": "this fake answers only { viewer { login } } and minimizeComment"}}})
		return http.StatusOK
	}
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(answer{"data": answer{"viewer": answer{"login": login}}})
	return http.StatusOK
}

// minimize is GraphQL's minimizeComment: the token may hide a comment it
// wrote; anyone else's is refused, as for a token without the right to
// moderate.
func (s *Server) minimize(vars map[string]any, login string) answer {
	id, _ := vars["id"].(string)
	classifier, _ := vars["classifier"].(string)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.comments {
		if fmt.Sprintf("IC_%d", c.ID) != id {
			continue
		}
		if c.Author != login || s.readOnly {
			return answer{"errors": []answer{{"type": "FORBIDDEN", "message": login + " does not have the correct permissions to execute `MinimizeComment`"}}}
		}
		c.Minimized = classifier
		return answer{"data": answer{"minimizeComment": answer{"minimizedComment": answer{"isMinimized": true, "minimizedReason": strings.ToLower(classifier)}}}}
	}
	return answer{"errors": []answer{{"type": "NOT_FOUND", "message": "Could not resolve to a node with the global id of '" + id + "'"}}}
}
