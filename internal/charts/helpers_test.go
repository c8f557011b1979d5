package charts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// listed is a trusted config listing hosts without credentials.
func listed(hosts ...string) config.ChartsOptions {
	c := config.ChartsOptions{Hosts: map[string]config.ChartHost{}}
	for _, h := range hosts {
		c.Hosts[h] = config.ChartHost{}
	}
	return c
}

func newFetcher(t *testing.T, opts charts.Options) *charts.Fetcher {
	t.Helper()
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	f, err := charts.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	f.SetLimits(0, 0, 10*time.Millisecond)
	t.Cleanup(func() { _ = f.Close() })
	return f
}

func locate(t *testing.T, f *charts.Fetcher, ref delivery.ChartRef) delivery.LocatedChart {
	t.Helper()
	loc, err := f.Locate(context.Background(), ref)
	if err != nil {
		t.Fatalf("Locate(%s): %v", ref, err)
	}
	return loc
}

// mustLocate wants an archive pinned at name and version.
func mustLocate(t *testing.T, f *charts.Fetcher, ref delivery.ChartRef, name, version string) delivery.LocatedChart {
	t.Helper()
	loc := locate(t, f, ref)
	if loc.NotRendered != "" {
		t.Fatalf("Locate(%s): not rendered: %s", ref, loc.NotRendered)
	}
	if len(loc.Archive) == 0 || loc.Pin.Name != name || loc.Pin.Version != version {
		t.Fatalf("Locate(%s) = %s (%d bytes), want %s %s", ref, loc.Pin, len(loc.Archive), name, version)
	}
	return loc
}

// mustFail wants a reason with every one of words.
func mustFail(t *testing.T, f *charts.Fetcher, ref delivery.ChartRef, words ...string) string {
	t.Helper()
	loc := locate(t, f, ref)
	if loc.NotRendered == "" {
		t.Fatalf("Locate(%s) = %s, want not rendered", ref, loc.Pin)
	}
	for _, w := range words {
		if !strings.Contains(loc.NotRendered, w) {
			t.Errorf("Locate(%s): reason %q lacks %q", ref, loc.NotRendered, w)
		}
	}
	return loc.NotRendered
}

// envAuth lists a host with its login from the variable name.
func envAuth(name string) config.ChartHost {
	return config.ChartHost{Auth: config.ChartAuth{Env: name}}
}
