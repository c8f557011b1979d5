package charts

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// seen is a server that records the Authorization header of each
// request, and redirects to target when set.
type seen struct {
	srv    *httptest.Server
	mu     sync.Mutex
	auth   []string
	target string
}

func newSeen(t *testing.T) *seen {
	s := &seen{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		target := s.target
		s.mu.Unlock()
		if target != "" {
			http.Redirect(w, r, target, http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("ok"))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *seen) host() string { return strings.TrimPrefix(s.srv.URL, "http://") }

func (s *seen) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auth...)
}

func get(t *testing.T, c *http.Client, url, authorization string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", authorization)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
}

// TestTransportNeverSendsAuthorizationInTheClear: whoever set it (the
// registry client sets its own), an Authorization header goes over plain
// HTTP only to a host the trusted config lists as http://, or to the
// plain registry its own token service answered for; it is taken off,
// and the host recorded, for any other.
func TestTransportNeverSendsAuthorizationInTheClear(t *testing.T) {
	bare, plain, registry := newSeen(t), newSeen(t), newSeen(t)
	f, err := New(Options{CacheDir: t.TempDir(), Getenv: func(string) string { return "" }, Config: config.ChartsOptions{Hosts: map[string]config.ChartHost{
		bare.host(): {}, "http://" + plain.host(): {}, registry.host(): {},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := f.transport(0, false)
	c := &http.Client{Transport: tr, CheckRedirect: checkRedirect}
	get(t, c, bare.srv.URL, "Bearer secret")
	get(t, c, plain.srv.URL, "Bearer secret")
	tr.plainRegistry = registry.host()
	get(t, c, registry.srv.URL, "Bearer token")
	if got := bare.got(); got[0] != "" || !f.withheld.has(bare.host()) {
		t.Errorf("a host listed without http:// got %q over plain HTTP", got)
	}
	if got := plain.got(); got[0] != "Bearer secret" {
		t.Errorf("a host listed as http:// got %q", got)
	}
	if got := registry.got(); got[0] != "Bearer token" {
		t.Errorf("the plain registry got %q of its own token", got)
	}
}

// TestRedirectDropsAuthorizationToAnotherHost: a redirect to another
// host:port takes the header off (Go would keep it for the same name on
// another port, or a subdomain); back at the first host it is there.
func TestRedirectDropsAuthorizationToAnotherHost(t *testing.T) {
	from, to := newSeen(t), newSeen(t)
	f, err := New(Options{CacheDir: t.TempDir(), Getenv: func(string) string { return "" }, Config: config.ChartsOptions{Hosts: map[string]config.ChartHost{
		"http://" + from.host(): {}, "http://" + to.host(): {},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := &http.Client{Transport: f.transport(0, false), CheckRedirect: checkRedirect}
	from.target = to.srv.URL + "/elsewhere"
	get(t, c, from.srv.URL, "Bearer secret")
	if got := from.got(); got[0] != "Bearer secret" {
		t.Errorf("the first host got %q", got)
	}
	if got := to.got(); got[0] != "" {
		t.Errorf("the host redirected to got %q", got)
	}
}
