package faultproxy

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Rule selects requests and says what happens to them.
type Rule struct {
	// Method matches the HTTP method; "" matches any.
	Method string
	// Path matches the URL path; nil matches any.
	Path *regexp.Regexp
	// Query is a substring the raw query must contain, e.g. "dryRun=All".
	Query string
	// Times is how many matching requests the rule takes; 0 takes all.
	Times int
	// Action is what happens to a taken request.
	Action Action
	// OnMatch, when set, runs for each taken request before the action,
	// e.g. to kill the upstream server in the middle of a run.
	OnMatch func(r *http.Request)

	taken int
}

// Taken is the number of requests the rule has taken so far. Read it
// only once the requests are over.
func (r *Rule) Taken() int { return r.taken }

// take reports whether the rule applies to req and counts it; it is
// called under the proxy's lock.
func (r *Rule) take(req *http.Request) bool {
	if r.Method != "" && !strings.EqualFold(r.Method, req.Method) {
		return false
	}
	if r.Path != nil && !r.Path.MatchString(req.URL.Path) {
		return false
	}
	if r.Query != "" && !strings.Contains(req.URL.RawQuery, r.Query) {
		return false
	}
	if r.Times > 0 && r.taken >= r.Times {
		return false
	}
	r.taken++
	return true
}

type kind int

const (
	kindDelay kind = iota + 1
	kindStatus
	kindDrop
	kindHang
)

// Action is one fault.
type Action struct {
	kind       kind
	Delay      time.Duration
	Status     int
	RetryAfter string
	plain      bool
}

// Latency forwards the request after d.
func Latency(d time.Duration) Action { return Action{kind: kindDelay, Delay: d} }

// Status answers code with a Kubernetes Status body, and a Retry-After
// header when retryAfter is not "".
func Status(code int, retryAfter string) Action {
	return Action{kind: kindStatus, Status: code, RetryAfter: retryAfter}
}

// StatusText answers code with a plain-text body, as a load balancer in
// front of the API server would.
func StatusText(code int, retryAfter string) Action {
	return Action{kind: kindStatus, Status: code, RetryAfter: retryAfter, plain: true}
}

// Drop closes the connection with a reset, without an answer.
func Drop() Action { return Action{kind: kindDrop} }

// Hang never answers: the request ends when the client gives up (or the
// proxy closes), with the connection dropped.
func Hang() Action { return Action{kind: kindHang} }

func (a Action) String() string {
	switch a.kind {
	case kindDelay:
		return "latency " + a.Delay.String()
	case kindStatus:
		s := fmt.Sprint(a.Status)
		if a.plain {
			s += " text"
		}
		if a.RetryAfter != "" {
			s += " Retry-After " + a.RetryAfter
		}
		return s
	case kindDrop:
		return "drop"
	case kindHang:
		return "hang"
	}
	return "?"
}

// Paths that tests match often.
var (
	// Discovery is the API server's discovery documents.
	Discovery = regexp.MustCompile(`^/api(/v1)?/?$|^/apis(/[^/]+(/[^/]+)?)?/?$`)
	// Objects is any request on a resource (not discovery).
	Objects = regexp.MustCompile(`^/(api/v1|apis/[^/]+/[^/]+)/.+`)
)
