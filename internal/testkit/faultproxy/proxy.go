// Package faultproxy is a loopback HTTP proxy for tests: it sits in front of
// a real server (the test kube-apiserver) and, for the requests that match a
// rule, adds latency, answers an error status, drops the connection or hangs,
// so that a client's retries and deadlines meet the faults of a real network
// instead of a mock.
package faultproxy

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

// Proxy forwards HTTPS on loopback to an upstream server, applying the
// first matching rule to each request. It serves TLS because clientcmd
// drops a kubeconfig's credentials for a plain-HTTP server.
type Proxy struct {
	// URL is the proxy's address, e.g. https://127.0.0.1:PORT.
	URL string
	// CAData is the PEM certificate a client verifies the proxy with.
	CAData []byte

	srv   *httptest.Server
	rp    *httputil.ReverseProxy
	stop  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	rules []*Rule
	log   []Request
}

// Request is one request the proxy received and what it did with it.
type Request struct {
	Method string
	Path   string
	Query  string
	Fault  string // the rule's action, "" when forwarded untouched
	At     time.Time
}

// New starts a proxy in front of upstream. caData verifies an https
// upstream (nil: the system roots). The client's own Authorization header
// is passed through, so each test keeps its identity.
func New(t testing.TB, upstream string, caData []byte) *Proxy {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatalf("faultproxy: upstream %q: %v", upstream, err)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if len(caData) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caData) {
			t.Fatal("faultproxy: no certificate in caData")
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	p := &Proxy{stop: make(chan struct{})}
	p.rp = httputil.NewSingleHostReverseProxy(u)
	p.rp.Transport = tr
	// Watch streams and long answers must not be buffered.
	p.rp.FlushInterval = -1
	// A dead upstream looks to the client as it would without the proxy in
	// between: the connection ends without an answer.
	p.rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) { drop(w) }
	p.srv = httptest.NewUnstartedServer(http.HandlerFunc(p.serve))
	// HTTP/1.1 only: dropping a connection needs http.Hijacker.
	p.srv.StartTLS()
	p.URL = p.srv.URL
	p.CAData = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: p.srv.Certificate().Raw})
	t.Cleanup(p.Close)
	return p
}

// ForCluster starts a proxy in front of the API server cfg points at and
// returns it with a copy of cfg that goes through it.
func ForCluster(t testing.TB, cfg *rest.Config) (*Proxy, *rest.Config) {
	t.Helper()
	p := New(t, cfg.Host, cfg.CAData)
	out := rest.CopyConfig(cfg)
	out.Host = p.URL
	out.TLSClientConfig = rest.TLSClientConfig{CAData: p.CAData}
	return p, out
}

// Close releases hung requests and stops the proxy.
func (p *Proxy) Close() {
	p.once.Do(func() {
		close(p.stop)
		p.srv.CloseClientConnections()
		p.srv.Close()
	})
}

// Add appends rules; the first rule that matches a request and has
// attempts left decides what happens to it.
func (p *Proxy) Add(rules ...*Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = append(p.rules, rules...)
}

// Clear removes every rule: requests are forwarded untouched again.
func (p *Proxy) Clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules = nil
}

// Requests returns what the proxy received so far.
func (p *Proxy) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Request(nil), p.log...)
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	rule := p.match(r)
	entry := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, At: time.Now()}
	if rule != nil {
		entry.Fault = rule.Action.String()
	}
	p.mu.Lock()
	p.log = append(p.log, entry)
	p.mu.Unlock()
	if rule == nil {
		p.rp.ServeHTTP(w, r)
		return
	}
	if rule.OnMatch != nil {
		rule.OnMatch(r)
	}
	p.apply(rule.Action, w, r)
}

func (p *Proxy) match(r *http.Request) *Rule {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, rule := range p.rules {
		if rule.take(r) {
			return rule
		}
	}
	return nil
}

func (p *Proxy) apply(a Action, w http.ResponseWriter, r *http.Request) {
	switch a.kind {
	case kindDelay:
		if !p.wait(r, a) {
			return
		}
		p.rp.ServeHTTP(w, r)
	case kindStatus:
		if a.RetryAfter != "" {
			w.Header().Set("Retry-After", a.RetryAfter)
		}
		msg := "faultproxy: injected " + http.StatusText(a.Status)
		if a.plain {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(a.Status)
			fmt.Fprintln(w, msg)
			return
		}
		// As the API server answers: the Retry-After header and the same
		// delay in the Status details, which is where client-go reads it.
		details := ""
		if secs, err := strconv.Atoi(a.RetryAfter); err == nil {
			details = fmt.Sprintf(`,"details":{"retryAfterSeconds":%d}`, secs)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.Status)
		fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":%q,"reason":%q,"code":%d%s}`,
			msg, reasonOf(a.Status), a.Status, details)
	case kindDrop:
		drop(w)
	case kindHang:
		select {
		case <-r.Context().Done():
		case <-p.stop:
		}
		drop(w)
	}
}

// wait sleeps the action's delay; false when the client gave up first.
func (p *Proxy) wait(r *http.Request, a Action) bool {
	t := time.NewTimer(a.Delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-p.stop:
		return false
	}
}

// drop ends the connection without an answer, as a crashed server or a
// reset by a middlebox would.
func drop(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*tls.Conn); ok {
		conn = tc.NetConn()
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		// RST instead of FIN: the client sees "connection reset by peer".
		_ = tc.SetLinger(0)
	}
	conn.Close()
}

func reasonOf(code int) string {
	switch code {
	case http.StatusTooManyRequests:
		return "TooManyRequests"
	case http.StatusServiceUnavailable:
		return "ServiceUnavailable"
	case http.StatusGatewayTimeout:
		return "Timeout"
	case http.StatusInternalServerError:
		return "InternalError"
	}
	return ""
}
