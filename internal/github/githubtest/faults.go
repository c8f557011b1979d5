package githubtest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Fault is an answer given instead of handling a request.
type Fault struct {
	Status int
	// RetryAfter sets the Retry-After header (seconds) when not "".
	RetryAfter string
	Message    string
	// DocumentationURL is GitHub's documentation_url; a secondary rate
	// limit is told by its "#...secondary-rate-limits" suffix.
	DocumentationURL string
}

// SecondaryRateLimit is GitHub's answer to too many writes in a short time.
func SecondaryRateLimit(retryAfter int) *Fault {
	return &Fault{Status: http.StatusForbidden, RetryAfter: strconv.Itoa(retryAfter),
		Message:          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
		DocumentationURL: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}
}

// BadGateway is what GitHub's front end answers when the API is overloaded.
func BadGateway() *Fault {
	return &Fault{Status: http.StatusBadGateway, Message: "Server Error"}
}

// SetIntercept installs f, called for every request before it takes
// effect (without the server's lock held, so f may call AddComment or
// DeleteComment); a non-nil Fault is answered instead. nil removes it.
func (s *Server) SetIntercept(f func(method, path string) *Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.intercept = f
}

// DeleteComment removes a comment as if someone had deleted it.
func (s *Server) DeleteComment(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delete(id)
}

// intercepted answers a fault when the intercept asks for one.
func (s *Server) intercepted(w http.ResponseWriter, r *http.Request) (int, bool) {
	s.mu.Lock()
	f := s.intercept
	s.mu.Unlock()
	if f == nil {
		return 0, false
	}
	fault := f(r.Method, strings.TrimPrefix(r.URL.Path, "/"))
	if fault == nil {
		return 0, false
	}
	if fault.RetryAfter != "" {
		w.Header().Set("Retry-After", fault.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(fault.Status)
	_ = json.NewEncoder(w).Encode(answer{"message": fault.Message, "documentation_url": fault.DocumentationURL})
	return fault.Status, true
}
