package charts_test

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

func TestHTTPRepositoryWithAndWithoutBasicAuth(t *testing.T) {
	for _, user := range []string{"", "reader"} {
		t.Run("user="+user, func(t *testing.T) {
			repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: user, Password: "s3cret"})
			digest := repo.Add(t, chartserver.Chart(t, "podinfo"))
			cfg := listed(repo.Host())
			if user != "" {
				// A plain HTTP repository's login goes over plain HTTP only
				// when the trusted config lists it as http://.
				delete(cfg.Hosts, repo.Host())
				cfg.Hosts[repo.URL()] = config.ChartHost{Auth: config.ChartAuth{Env: "REPO_AUTH"}}
			}
			f := newFetcher(t, charts.Options{Config: cfg, Getenv: func(k string) string {
				if k == "REPO_AUTH" {
					return "reader:s3cret"
				}
				return ""
			}})
			ref := delivery.ChartFromRepository(repo.URL(), "podinfo", "6.14.1")
			loc := mustLocate(t, f, ref, "podinfo", "6.14.1")
			if loc.Pin.Digest != digest || loc.Pin.From != repo.URL() {
				t.Errorf("pin %+v, want digest %s from %s", loc.Pin, digest, repo.URL())
			}
			if chartserver.Digest(loc.Archive) != digest {
				t.Errorf("archive's digest is not the pin's")
			}
		})
	}
}

func TestHTTPVersionsResolveAsHelmDoes(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	c := chartserver.Chart(t, "podinfo")
	for _, v := range []string{"5.2.0", "6.7.1", "6.8.0", "7.0.0-rc.1"} {
		repo.Add(t, chartserver.WithVersion(c, v))
	}
	f := newFetcher(t, charts.Options{Config: listed(repo.Host())})
	for version, want := range map[string]string{
		"6.x":            "6.8.0",
		">=1.0.0 <6.0.0": "5.2.0",
		"":               "6.8.0",
		"6.7.1":          "6.7.1",
		"7.0.0-rc.1":     "7.0.0-rc.1",
		// A range without a pre-release matches none (Masterminds').
		">=6.7.0 <8.0.0": "6.8.0",
	} {
		mustLocate(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", version), "podinfo", want)
	}
	mustFail(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", "9.9.9"),
		"chart podinfo 9.9.9 from "+repo.URL(), "no version matches 9.9.9 (latest 7.0.0-rc.1)")
	mustFail(t, f, delivery.ChartFromRepository(repo.URL(), "nginx", ""), "no chart nginx")
	if got := repo.Count("/index.yaml"); got != 1 {
		t.Errorf("index fetched %d times in one run, want 1", got)
	}
}

func TestHTTPArchiveURLAbsoluteAndDirect(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{AbsoluteURLs: true})
	repo.Add(t, chartserver.Chart(t, "metrics-server"))
	dir := t.TempDir()
	f := newFetcher(t, charts.Options{CacheDir: dir, Config: listed(repo.Host())})
	mustLocate(t, f, delivery.ChartFromRepository(repo.URL()+"/", "metrics-server", "3.x"), "metrics-server", "3.13.1")
	direct := delivery.ChartFromReference(repo.ChartURL("metrics-server", "3.13.1"))
	mustLocate(t, f, direct, "metrics-server", "3.13.1")
	if got := repo.Count("/metrics-server-3.13.1.tgz"); got != 1 {
		t.Errorf("archive fetched %d times, want 1", got)
	}
	mustLocate(t, newFetcher(t, charts.Options{CacheDir: dir, Offline: true}), direct, "metrics-server", "3.13.1")
}

func TestHTTPBadArchiveAndDigestMismatch(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	repo.Serve("/podinfo-6.14.1.tgz", []byte("not a tarball"))
	f := newFetcher(t, charts.Options{Config: listed(repo.Host())})
	mustFail(t, f, delivery.ChartFromRepository(repo.URL(), "podinfo", "6.14.1"), "its digest is sha256:", "not the sha256:")
	f = newFetcher(t, charts.Options{Config: listed(repo.Host())})
	mustFail(t, f, delivery.ChartFromReference(repo.URL()+"/podinfo-6.14.1.tgz"), "not a chart archive")
}

func TestIndexRevalidatedNotDownloadedAgain(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	dir := t.TempDir()
	ref := delivery.ChartFromRepository(repo.URL(), "podinfo", "6.x")
	mustLocate(t, newFetcher(t, charts.Options{CacheDir: dir, Config: listed(repo.Host())}), ref, "podinfo", "6.14.1")

	warm := newFetcher(t, charts.Options{CacheDir: dir, Config: listed(repo.Host())})
	mustLocate(t, warm, ref, "podinfo", "6.14.1")
	if s := warm.Stats(); s.Downloads != 0 || s.Bytes != 0 || s.CacheHits != 2 {
		t.Errorf("warm run's stats %+v, want no download, no byte, 2 cache hits (index 304, archive)", s)
	}
	if got := repo.Count("/index.yaml"); got != 2 {
		t.Errorf("index requested %d times over two runs, want 2 (the second answered 304)", got)
	}

	// A new version is seen at once: the index changed, so it is fetched.
	repo.Add(t, chartserver.WithVersion(chartserver.Chart(t, "podinfo"), "6.15.0"))
	mustLocate(t, newFetcher(t, charts.Options{CacheDir: dir, Config: listed(repo.Host())}), ref, "podinfo", "6.15.0")
}

func TestURLUserinfoNeverInReason(t *testing.T) {
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: "u", Password: "p"})
	repo.Add(t, chartserver.Chart(t, "podinfo"))
	f := newFetcher(t, charts.Options{Config: listed(repo.Host())})
	url := strings.Replace(repo.URL(), "http://", "http://u:hunter2@", 1)
	reason := mustFail(t, f, delivery.ChartFromRepository(url, "podinfo", ""), "401")
	if strings.Contains(reason, "hunter2") {
		t.Errorf("reason prints the URL's password: %s", reason)
	}
}
