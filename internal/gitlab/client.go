package gitlab

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client makes GitLab REST API v4 calls with a token: a project or group
// access token (or a personal one) in the PRIVATE-TOKEN header. The job
// token (CI_JOB_TOKEN) cannot write merge request notes.
type Client struct {
	// BaseURL is the API's root, GitLab CI's CI_API_V4_URL
	// (https://gitlab.com/api/v4).
	BaseURL string
	// token is never printed: no error or message of this package holds it.
	token string
	HTTP  *http.Client
}

// NewClient is a client of the API at baseURL with token.
func NewClient(baseURL, token string) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("CI_API_V4_URL %q is not the URL of GitLab's API", baseURL)
	}
	if u.Scheme == "http" && token != "" && !loopback(u.Hostname()) {
		// A job's variables can be set by the pipeline a merge request
		// writes: a token is never handed to a plain-http address.
		return nil, fmt.Errorf("CI_API_V4_URL %q is plain http: the GitLab token is sent only over https (or to this machine)", baseURL)
	}
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), token: token, HTTP: &http.Client{Timeout: time.Minute, CheckRedirect: sameHost}}, nil
}

// loopback tells a host of this machine, which a token may reach over
// plain http (a job talking to a proxy beside it, the tests' GitLab).
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameHost follows a redirect only to the host the call went to, over the
// same or a safer scheme: the PRIVATE-TOKEN header goes with the request.
func sameHost(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	first := via[0].URL
	if req.URL.Host != first.Host || (first.Scheme == "https" && req.URL.Scheme != "https") {
		return fmt.Errorf("GitLab API: a redirect to %s://%s, another address than the API's, is not followed with the token", req.URL.Scheme, req.URL.Host)
	}
	return nil
}

// maxAnswer bounds what is read of an answer: a page of 100 notes of up to
// 1,000,000 characters each is the largest the calls here get.
const maxAnswer = 512 << 20

// APIError is an answer of GitLab other than 2xx.
type APIError struct {
	Method, Path string
	Status       int
	// Message is GitLab's "message" or "error", cut short.
	Message string
	// RetryAfter is the wait GitLab asked for (429), 0 when none.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := ""
	if e.Message != "" {
		msg = ": " + e.Message
	}
	return fmt.Sprintf("GitLab API %s %s: %d %s%s", e.Method, e.Path, e.Status, http.StatusText(e.Status), msg)
}

// answer is what do reads of a 2xx answer besides its body.
type answer struct {
	header http.Header
}

// do sends method path (below BaseURL) with the query and a JSON body
// (nil: none) and decodes a 2xx answer into out (nil: discarded).
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) (answer, error) {
	data, ans, err := c.send(ctx, method, path, query, body, "application/json", maxAnswer)
	if err != nil {
		return ans, err
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			return answer{}, fmt.Errorf("GitLab API %s %s: not the answer expected: %w", method, path, err)
		}
	}
	return ans, nil
}

// send sends method path (below BaseURL) with the query and a JSON body
// (nil: none), accepting the media type accept, and returns the body of a
// 2xx answer, read up to limit bytes (one more tells a caller it is over).
func (c *Client) send(ctx context.Context, method, path string, query url.Values, body any, accept string, limit int64) ([]byte, answer, error) {
	u := c.BaseURL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, answer{}, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, answer{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", accept)
	if c.token != "" {
		req.Header.Set("PRIVATE-TOKEN", c.token)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		// url.Error names the URL, which holds no token.
		return nil, answer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, answer{}, fmt.Errorf("GitLab API %s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, answer{}, apiError(method, path, resp, data)
	}
	return data, answer{header: resp.Header}, nil
}

func apiError(method, path string, resp *http.Response, data []byte) *APIError {
	e := &APIError{Method: method, Path: path, Status: resp.StatusCode}
	var m struct {
		Message any    `json:"message"`
		Error   string `json:"error"`
	}
	if json.Unmarshal(data, &m) == nil {
		switch v := m.Message.(type) {
		case string:
			e.Message = v
		case nil:
			e.Message = m.Error
		default:
			b, _ := json.Marshal(v)
			e.Message = string(b)
		}
	}
	if len(e.Message) > 300 {
		e.Message = e.Message[:300] + "…"
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}

// statusOf is the HTTP status of an API error, 0 when there is none.
func statusOf(err error) int {
	var e *APIError
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// transient tells a failure worth another attempt: a rate limit (429),
// 5xx answers and broken connections; and the wait GitLab asked for.
func transient(err error) (bool, time.Duration) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false, 0
	}
	var e *APIError
	if errors.As(err, &e) {
		switch e.Status {
		case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true, e.RetryAfter
		}
		return false, 0
	}
	var ne net.Error
	return errors.As(err, &ne), 0
}

// projectPath is the API's path of project (an ID, or a full path such as
// group/app, which GitLab takes URL-encoded).
func projectPath(project string) string {
	return "/projects/" + url.PathEscape(project)
}
