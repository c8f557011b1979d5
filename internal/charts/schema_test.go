package charts_test

import (
	"bytes"
	"context"
	"net"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

const schemaDoc = `{"type": "object", "properties": {"replicas": {"type": "integer"}}}`

func fetchSchema(t *testing.T, f *charts.Fetcher, url string) delivery.FetchedSchema {
	t.Helper()
	got, err := f.FetchSchema(context.Background(), url)
	if err != nil {
		t.Fatalf("FetchSchema(%s): %v", url, err)
	}
	return got
}

// TestSchemaThroughMirrorCachedAndOffline: a schema named on
// raw.githubusercontent.com is fetched from the trusted config's mirror
// of it, once per run; a later run revalidates its cached copy (304, no
// download), and an --offline run reads it from the cache alone.
func TestSchemaThroughMirrorCachedAndOffline(t *testing.T) {
	mirror := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	const path = "/bjw-s/helm-charts/common-3.7.3/charts/library/common/values.schema.json"
	mirror.Serve(path, []byte(schemaDoc))
	cfg := config.ChartsOptions{Mirrors: map[string]string{"raw.githubusercontent.com": mirror.URL()}}
	url := "https://raw.githubusercontent.com" + path
	cache := t.TempDir()

	f := newFetcher(t, charts.Options{Config: cfg, CacheDir: cache})
	for range 2 {
		if got := fetchSchema(t, f, url); got.NotRendered != "" || string(got.Data) != schemaDoc {
			t.Fatalf("FetchSchema = %q (%q)", got.Data, got.NotRendered)
		}
	}
	if n := mirror.Count(path); n != 1 {
		t.Errorf("the mirror had %d requests in one run, want 1", n)
	}
	if s := f.Stats(); s.Downloads != 1 || s.Bytes != int64(len(schemaDoc)) {
		t.Errorf("stats %+v, want one download of %d bytes", s, len(schemaDoc))
	}

	again := newFetcher(t, charts.Options{Config: cfg, CacheDir: cache})
	if got := fetchSchema(t, again, url); string(got.Data) != schemaDoc {
		t.Fatalf("second run: %q (%q)", got.Data, got.NotRendered)
	}
	if mirror.NotModified(path) != 1 || again.Stats().Downloads != 0 || again.Stats().CacheHits != 1 {
		t.Errorf("second run: %d answers 304, stats %+v: want the cached copy revalidated", mirror.NotModified(path), again.Stats())
	}

	mirror.FailNext(-1, 500, "")
	seen := mirror.Count(path)
	offline := newFetcher(t, charts.Options{Config: cfg, CacheDir: cache, Offline: true})
	if got := fetchSchema(t, offline, url); string(got.Data) != schemaDoc {
		t.Fatalf("--offline: %q (%q)", got.Data, got.NotRendered)
	}
	if mirror.Count(path) != seen {
		t.Error("--offline reached the mirror")
	}
	missing := fetchSchema(t, offline, "https://raw.githubusercontent.com/other.json")
	if !strings.Contains(missing.NotRendered, "https://raw.githubusercontent.com/other.json is not in the chart cache (--offline)") {
		t.Errorf("--offline, not cached: %q", missing.NotRendered)
	}
}

// listener counts the connections it is offered: a refused address must
// get none.
func listener(t *testing.T) (addr string, accepted *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = &atomic.Int32{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = l.Close(); <-done })
	return l.Addr().String(), accepted
}

// TestSchemaAddressRules: a schema's URL is held to the address rules of
// a chart's: a loopback or private address of a host the trusted config
// does not list is refused before anything is sent, also when a listed
// host redirects there; and only http and https URLs are fetched.
func TestSchemaAddressRules(t *testing.T) {
	addr, accepted := listener(t)
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Redirect("/schema.json", "http://"+addr+"/x")
	f := newFetcher(t, charts.Options{Config: config.ChartsOptions{Mirrors: map[string]string{"schemas.example": repo.URL()}}})
	for url, want := range map[string]string{
		"http://" + addr + "/x":               "an address of the runner's own network",
		"https://10.0.0.1/x.json":             "10.0.0.1",
		"https://schemas.example/schema.json": addr,
		"ftp://schemas.example/x.json":        "only an http or https URL is fetched",
		"https://u:p@schemas.example/x.json":  "a URL with a login in it is not fetched",
	} {
		got := fetchSchema(t, f, url)
		if got.Data != nil || !strings.Contains(got.NotRendered, want) {
			t.Errorf("FetchSchema(%s) = %q, %q: want refused, naming %q", url, got.Data, got.NotRendered, want)
		}
		if strings.Contains(got.NotRendered, "u:p") {
			t.Errorf("the reason shows the URL's login: %q", got.NotRendered)
		}
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the loopback listener got %d connections", n)
	}
}

// TestSchemaSizeBound: a schema larger than MaxSchemaSize is refused,
// the bound named, without reading it all.
func TestSchemaSizeBound(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Serve("/big.json", bytes.Repeat([]byte(" "), charts.MaxSchemaSize+1))
	f := newFetcher(t, charts.Options{Config: listed(repo.Host())})
	got := fetchSchema(t, f, repo.URL()+"/big.json")
	if got.Data != nil || !strings.Contains(got.NotRendered, "larger than 8 MiB") {
		t.Errorf("FetchSchema = %d bytes, %q: want the bound named", len(got.Data), got.NotRendered)
	}
	if s := f.Stats(); s.Bytes > charts.MaxSchemaSize+64<<10 {
		t.Errorf("read %d bytes past the bound", s.Bytes)
	}
}

// TestSchemaWithoutLogin: a schema's own host gets no login, even one
// the trusted config lists with credentials, as Helm sends none.
func TestSchemaWithoutLogin(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Serve("/s.json", []byte(schemaDoc))
	cfg := config.ChartsOptions{Hosts: map[string]config.ChartHost{repo.Host(): envAuth("TOKEN")}}
	f := newFetcher(t, charts.Options{Config: cfg, Getenv: func(string) string { return "u:p" }})
	if got := fetchSchema(t, f, repo.URL()+"/s.json"); string(got.Data) != schemaDoc {
		t.Fatalf("FetchSchema: %q", got.NotRendered)
	}
	if n := repo.SawCredentials(); n != 0 {
		t.Errorf("the schema's host got a login %d times", n)
	}
}
