package charts_test

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

func TestRateLimitedThenServed(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	repo.FailNext(2, http.StatusTooManyRequests, "0")
	f := newFetcher(t, charts.Options{Config: listed(repo.Host())})
	mustLocate(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", ""), "podinfo", "6.14.1")
	if got := repo.Count("/index.yaml"); got != 3 {
		t.Errorf("index requested %d times, want 3 (two 429s, then the index)", got)
	}
}

func TestServerFailingForeverEndsWithinTheBound(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	repo.FailNext(-1, http.StatusInternalServerError, "")
	// The retries take about a second; the run's fetch time leaves room
	// for a loaded machine, where they took longer than 1.5 s.
	const bound = 10 * time.Second
	f := newFetcher(t, charts.Options{Config: listed(repo.Host()), FetchTimeout: bound})
	f.SetLimits(0, 0, time.Second)
	start := time.Now()
	mustFail(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", ""), "500 Internal Server Error", "index.yaml", "after retries")
	if d := time.Since(start); d > bound+100*time.Millisecond {
		t.Errorf("took %s, past the run's fetch time", d)
	}
}

func TestSlowServerEndsAtTheRunsFetchTime(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	repo.Slow(time.Minute)
	f := newFetcher(t, charts.Options{Config: listed(repo.Host()), FetchTimeout: 300 * time.Millisecond})
	start := time.Now()
	mustFail(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", ""), "no answer within the run's fetch time")
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestUnreachableHost(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	f := newFetcher(t, charts.Options{Config: listed(addr)})
	mustFail(t, f, delivery.ChartFromRepository("http://"+addr, "podinfo", ""), addr+" refused the connection")
	mustFail(t, f, delivery.ChartFromReference("oci://"+addr+"/charts/podinfo:1.0.0"), addr+" refused the connection")
	mustFail(t, f, delivery.ChartFromRepository("https://charts.invalid", "podinfo", ""), "host charts.invalid not found (DNS)")
}

func TestTooLargeIndexAndChart(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	f := newFetcher(t, charts.Options{Config: listed(repo.Host())})
	f.SetLimits(100, 0, 0)
	mustFail(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", ""), "index.yaml is larger than")

	f = newFetcher(t, charts.Options{Config: listed(repo.Host())})
	f.SetLimits(0, 1000, 0)
	mustFail(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", ""), "podinfo-6.14.1.tgz is larger than")

	reg := chartserver.NewOCI(t, chartserver.OCIOptions{})
	reg.Push(t, chartserver.Chart(t, "podinfo"), "")
	f = newFetcher(t, charts.Options{Config: listed(reg.Host())})
	f.SetLimits(0, 1000, 0)
	mustFail(t, f, delivery.ChartFromReference(reg.Ref("podinfo")+":6.14.1"), "is larger than")
}

func TestNotFetchedForms(t *testing.T) {
	f := newFetcher(t, charts.Options{})
	mustFail(t, f, delivery.ChartRef{Kind: delivery.ChartInGit, URL: "https://github.com/org/charts", Path: "charts/web", Version: "main"},
		"chart charts/web main from https://github.com/org/charts", "another Git repository", "not checked")
	mustFail(t, f, delivery.ChartRef{Kind: delivery.ChartInFluxSource, Source: &delivery.ObjectRef{Kind: "OCIRepository", Namespace: "flux-system", Name: "podinfo"}},
		"OCIRepository flux-system/podinfo is not in this repository")
	loc := locate(t, f, delivery.ChartRef{Kind: delivery.ChartInRepository, Path: "charts/web"})
	if loc.Dir != "charts/web" {
		t.Errorf("repository chart located at %q", loc.Dir)
	}
}

func TestFluxSourceFetchedByItsURL(t *testing.T) {
	reg := chartserver.NewOCI(t, chartserver.OCIOptions{})
	digest := reg.Push(t, chartserver.Chart(t, "podinfo"), "charts")
	f := newFetcher(t, charts.Options{Config: listed(reg.Host())})
	loc := mustLocate(t, f, delivery.ChartRef{Kind: delivery.ChartInFluxSource, URL: reg.Ref("charts/podinfo"), Version: "6.x",
		Source: &delivery.ObjectRef{Kind: "OCIRepository", Namespace: "flux-system", Name: "podinfo"}}, "podinfo", "6.14.1")
	if loc.Pin.Digest != digest {
		t.Errorf("pin %s, want %s", loc.Pin.Digest, digest)
	}
}

func TestCacheCorruptionIsAMissAndUnwritableIsAnError(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	digest := repo.Add(t, chartserver.Chart(t, "podinfo"))
	dir := t.TempDir()
	ref := delivery.ChartFromRepository(repo.URL(), "podinfo", "")
	mustLocate(t, newFetcher(t, charts.Options{CacheDir: dir, Config: listed(repo.Host())}), ref, "podinfo", "6.14.1")
	blob := filepath.Join(dir, "blobs", "sha256", digest[len("sha256:"):])
	if err := os.WriteFile(blob, []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	loc := mustLocate(t, newFetcher(t, charts.Options{CacheDir: dir, Config: listed(repo.Host())}), ref, "podinfo", "6.14.1")
	if chartserver.Digest(loc.Archive) != digest || repo.Count("/podinfo-6.14.1.tgz") != 2 {
		t.Errorf("a tampered cache entry was used, or not fetched again")
	}
	if b, _ := os.ReadFile(blob); !bytes.Equal(b, loc.Archive) {
		t.Errorf("the cache entry was not written again")
	}

	file := filepath.Join(t.TempDir(), "file")
	_ = os.WriteFile(file, nil, 0o644)
	if _, err := charts.New(charts.Options{CacheDir: file}); err == nil {
		t.Error("a cache directory that is a file was accepted")
	}
}

func TestAtMostPerHostRequestsAtOnce(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	c := chartserver.Chart(t, "podinfo")
	for i := range 8 {
		repo.Add(t, chartserver.WithName(c, fmt.Sprintf("app-%d", i)))
	}
	repo.Slow(20 * time.Millisecond)
	f := newFetcher(t, charts.Options{Config: listed(repo.Host()), PerHost: 2})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("app-%d", i)
			if loc := locate(t, f, delivery.ChartFromRepository(repo.URL(), name, "")); loc.NotRendered != "" {
				t.Error(loc.NotRendered)
			}
		}()
	}
	wg.Wait()
	if got := repo.MaxInFlight(); got > 2 {
		t.Errorf("%d requests at once, want at most 2", got)
	}
}
