package charts

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/ownership-check/ownership-check/internal/retry"
)

// transport is every request's way out: at most PerHost at once to a
// host, 429 and 5xx retried with backoff, the body bounded, and (for
// the HTTP repositories, where Helm's registry client does not add them
// itself) the login of the request's own host, so that a redirect to
// another host carries none. No request leaves with an Authorization
// header over plain HTTP unless the trusted config lists its host as an
// http:// URL (cleartext.go), whoever set the header.
type transport struct {
	base  http.RoundTripper
	hosts *hostSlots
	stats *stats
	// creds are the hosts' logins; addLogin says they are added by host
	// to each request.
	creds    credentials
	addLogin bool
	// withheld records a host whose login a plain HTTP request went
	// without.
	withheld *withheld
	// plainRegistry is the registry (host:port) this transport speaks
	// plain HTTP to, which may be sent what its own token service gave
	// (authClient); "" for none.
	plainRegistry string
	// limit bounds a response body; 0 is MaxIndexSize.
	limit int64
	// ctx, when set, is every request's context: Helm's registry client
	// makes its requests with a context of its own, which this replaces
	// so that a Locate's end, and the run's, ends them.
	ctx     context.Context
	backoff retry.Backoff
}

// The retries of one request: enough for a registry's short rate limit,
// few enough that a host that fails for good fails the chart fast.
const (
	attempts      = 5
	maxRetryAfter = 30 * time.Second
)

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.ctx != nil {
		req = req.WithContext(t.ctx)
	}
	req = t.login(req)
	var resp *http.Response
	idempotent := req.Method == http.MethodGet || req.Method == http.MethodHead
	loop := retry.Loop{Attempts: attempts, Again: t.again}
	if !idempotent {
		loop.Attempts = 1
	}
	_, err := loop.Do(req.Context(), func() error {
		release, err := t.hosts.acquire(req.Context(), req.URL.Host)
		if err != nil {
			return err
		}
		r, err := t.base.RoundTrip(req)
		if err != nil {
			release()
			return err
		}
		resp = r
		if retryable(r.StatusCode) {
			// Read the error's short body so the connection is reused.
			_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 64<<10))
			_ = r.Body.Close()
			release()
			return &statusError{code: r.StatusCode, retryAfter: r.Header.Get("Retry-After")}
		}
		r.Body = &bodyGuard{ReadCloser: r.Body, release: release, limit: t.bodyLimit(), stats: t.stats}
		return nil
	})
	if err != nil {
		if se, ok := err.(*statusError); ok && resp != nil {
			// The last answer, with its status, for the caller to name.
			resp.Body = io.NopCloser(http.NoBody)
			resp.StatusCode = se.code
			return resp, nil
		}
		return nil, err
	}
	if resp.ContentLength > t.bodyLimit() {
		_ = resp.Body.Close()
		return nil, &tooLargeError{limit: t.bodyLimit()}
	}
	return resp, nil
}

// login is req with its host's login when the transport adds them and
// the scheme allows, and without any Authorization header that would go
// in the clear to a host not listed as http://.
func (t *transport) login(req *http.Request) *http.Request {
	host := req.URL.Host
	if t.addLogin {
		cred, s := t.creds.forRequest(req.URL.Scheme, host)
		switch s {
		case sendLogin:
			req = req.Clone(req.Context())
			if cred.User == "" {
				req.Header.Set("Authorization", "Bearer "+cred.Password)
			} else {
				req.SetBasicAuth(cred.User, cred.Password)
			}
			return req
		case withheldLogin:
			t.withheld.add(host)
		}
	}
	if req.URL.Scheme != "https" && req.Header.Get("Authorization") != "" && !t.creds.plainOK(host) && host != t.plainRegistry {
		req = req.Clone(req.Context())
		req.Header.Del("Authorization")
		t.withheld.add(host)
	}
	return req
}

func (t *transport) bodyLimit() int64 {
	if t.limit > 0 {
		return t.limit
	}
	return MaxIndexSize
}

// again waits the server's Retry-After (capped) after a 429 or 503, or
// the backoff's step after any other retried status.
func (t *transport) again(attempt int, err error) (bool, time.Duration) {
	se, ok := err.(*statusError)
	if !ok {
		return false, 0
	}
	wait := t.backoff.Delay(attempt)
	if s, err := strconv.Atoi(se.retryAfter); err == nil && s >= 0 {
		wait = min(time.Duration(s)*time.Second, maxRetryAfter)
	}
	return true, wait
}

func retryable(code int) bool {
	return code == http.StatusTooManyRequests || code >= 500
}

// statusError is an answer retried and still failing.
type statusError struct {
	code       int
	retryAfter string
}

func (e *statusError) Error() string {
	return strconv.Itoa(e.code) + " " + http.StatusText(e.code)
}

// bodyGuard frees the host's slot when the body is closed, counts its
// bytes and stops it at the limit.
type bodyGuard struct {
	io.ReadCloser
	release func()
	limit   int64
	read    int64
	stats   *stats
	closed  bool
}

func (b *bodyGuard) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	b.stats.addBytes(int64(n))
	if b.read > b.limit {
		return n, &tooLargeError{limit: b.limit}
	}
	return n, err
}

func (b *bodyGuard) Close() error {
	if !b.closed {
		b.closed = true
		b.release()
	}
	return b.ReadCloser.Close()
}
