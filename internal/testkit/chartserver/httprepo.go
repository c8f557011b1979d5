package chartserver

import (
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"
)

// HTTPOptions shape an HTTP chart repository.
type HTTPOptions struct {
	// User and Password, when User is set, are the basic credentials
	// every request must carry (401 without them).
	User, Password string
	// AbsoluteURLs lists each chart at its absolute URL in the index
	// instead of relative to it.
	AbsoluteURLs bool
	// TLS serves https:// with a certificate of the test's own (Pool is
	// what trusts it).
	TLS bool
}

// HTTPRepo is a static HTTP Helm repository: index.yaml and the .tgz
// files it lists, served by a test.
type HTTPRepo struct {
	opts HTTPOptions
	srv  *httptest.Server

	mu     sync.Mutex
	files  map[string][]byte // by URL path
	index  *repo.IndexFile
	counts counter
	// notModified counts the conditional GETs answered 304 by path.
	notModified counter
	creds       int
	// inFlight and maxInFlight are the requests being answered at once.
	inFlight, maxInFlight int
	faults                faults
}

// NewHTTPRepo starts an empty repository on 127.0.0.1; it stops with t.
func NewHTTPRepo(t testing.TB, opts HTTPOptions) *HTTPRepo {
	t.Helper()
	r := &HTTPRepo{opts: opts, files: map[string][]byte{}, index: repo.NewIndexFile()}
	if opts.TLS {
		r.srv = httptest.NewTLSServer(http.HandlerFunc(r.serve))
	} else {
		r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	}
	t.Cleanup(r.srv.Close)
	r.writeIndex(t)
	return r
}

// Pool trusts the certificate of a repository served with TLS.
func (r *HTTPRepo) Pool() *x509.CertPool {
	pool := x509.NewCertPool()
	if c := r.srv.Certificate(); c != nil {
		pool.AddCert(c)
	}
	return pool
}

// URL is the repository's URL (what a HelmRepository's spec.url or an
// Argo CD repoURL names), without a trailing slash.
func (r *HTTPRepo) URL() string { return r.srv.URL }

// Host is the repository's host:port, as the trusted config lists it.
func (r *HTTPRepo) Host() string {
	return strings.TrimPrefix(strings.TrimPrefix(r.srv.URL, "http://"), "https://")
}

// Add packages c, serves it at /NAME-VERSION.tgz, lists it in the index
// and returns the archive's digest ("sha256:…"). Adding the same name and
// version again replaces the archive: a tag moved to other bytes.
func (r *HTTPRepo) Add(t testing.TB, c *chart.Chart) string {
	t.Helper()
	archive := Archive(t, c)
	digest := Digest(archive)
	file := fmt.Sprintf("%s-%s.tgz", c.Name(), c.Metadata.Version)
	base := ""
	if r.opts.AbsoluteURLs {
		base = r.srv.URL
	}
	md := *c.Metadata
	r.mu.Lock()
	r.files["/"+file] = archive
	kept := r.index.Entries[md.Name][:0]
	for _, v := range r.index.Entries[md.Name] {
		if v.Version != md.Version {
			kept = append(kept, v)
		}
	}
	r.index.Entries[md.Name] = kept
	err := r.index.MustAdd(&md, file, base, strings.TrimPrefix(digest, "sha256:"))
	r.mu.Unlock()
	if err != nil {
		t.Fatalf("chartserver: index %s: %v", file, err)
	}
	r.writeIndex(t)
	return digest
}

// writeIndex serves the index as `helm repo index` writes it.
func (r *HTTPRepo) writeIndex(t testing.TB) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.index.SortEntries()
	b, err := yaml.Marshal(r.index)
	if err != nil {
		t.Fatalf("chartserver: write index: %v", err)
	}
	r.files["/index.yaml"] = b
}

// Serve serves body at path (from the server's root), in place of what
// was there: an oversized or broken index, a file the index names.
func (r *HTTPRepo) Serve(path string, body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files[path] = body
}

// Count is how many requests path had (every method, every answer).
func (r *HTTPRepo) Count(path string) int { return r.counts.get(path) }

// NotModified is how many requests of path were answered 304 Not
// Modified: a cached copy revalidated, not downloaded again.
func (r *HTTPRepo) NotModified(path string) int { return r.notModified.get(path) }

// Counts are the requests of every path so far.
func (r *HTTPRepo) Counts() map[string]int { return r.counts.all() }

// SawCredentials is how many requests carried an Authorization header:
// a test of which hosts get credentials wants 0 at a host that gets none.
func (r *HTTPRepo) SawCredentials() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.creds
}

// MaxInFlight is the most requests the server answered at once.
func (r *HTTPRepo) MaxInFlight() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.maxInFlight
}

// FailNext answers the next n requests with status (and Retry-After,
// when retryAfter is not ""); n < 0 fails every request from now on.
func (r *HTTPRepo) FailNext(n, status int, retryAfter string) {
	r.faults.failNext(n, status, retryAfter)
}

// Redirect answers path with a 302 to target (another server's URL).
func (r *HTTPRepo) Redirect(path, target string) { r.faults.redirect(path, target) }

// Slow delays every answer by d, until the request's context ends.
func (r *HTTPRepo) Slow(d time.Duration) { r.faults.slow(d) }

func (r *HTTPRepo) serve(w http.ResponseWriter, req *http.Request) {
	path := req.URL.Path
	r.counts.inc(path)
	r.mu.Lock()
	if req.Header.Get("Authorization") != "" {
		r.creds++
	}
	r.inFlight++
	r.maxInFlight = max(r.maxInFlight, r.inFlight)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inFlight--
		r.mu.Unlock()
	}()
	if r.faults.apply(w, req) {
		return
	}
	if r.opts.User != "" {
		u, p, ok := req.BasicAuth()
		if !ok || u != r.opts.User || p != r.opts.Password {
			w.Header().Set("WWW-Authenticate", `Basic realm="charts"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
	}
	r.mu.Lock()
	body, ok := r.files[path]
	r.mu.Unlock()
	if !ok {
		http.NotFound(w, req)
		return
	}
	etag := `"` + strings.TrimPrefix(Digest(body), "sha256:")[:16] + `"`
	w.Header().Set("ETag", etag)
	if req.Header.Get("If-None-Match") == etag {
		r.notModified.inc(path)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	switch {
	case strings.HasSuffix(path, ".yaml"):
		w.Header().Set("Content-Type", "application/x-yaml")
	case strings.HasSuffix(path, ".json"):
		w.Header().Set("Content-Type", "application/json")
	default:
		w.Header().Set("Content-Type", "application/gzip")
	}
	_, _ = w.Write(body)
}

// ChartURL is the absolute URL of the archive Add served for name and
// version.
func (r *HTTPRepo) ChartURL(name, version string) string {
	u, _ := url.JoinPath(r.srv.URL, fmt.Sprintf("%s-%s.tgz", name, version))
	return u
}
