package charts_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"helm.sh/helm/v3/pkg/registry"
)

// ociWithAuth is a token-auth registry with podinfo 6.7.1 and 6.8.0,
// listed with its login from the environment.
func ociWithAuth(t *testing.T) (*chartserver.OCI, map[string]string, charts.Options) {
	t.Helper()
	reg := chartserver.NewOCI(t, chartserver.OCIOptions{User: "bot", Password: "t0ken"})
	c := chartserver.Chart(t, "podinfo")
	digests := map[string]string{}
	for _, v := range []string{"6.7.1", "6.8.0", "7.0.0-rc.1"} {
		digests[v] = reg.Push(t, chartserver.WithVersion(c, v), "charts")
	}
	opts := charts.Options{
		// Listed as http://: a registry on loopback speaks plain HTTP.
		Config: config.ChartsOptions{Hosts: map[string]config.ChartHost{reg.URL(): {Auth: config.ChartAuth{Env: "REG"}}}},
		Getenv: func(k string) string { return map[string]string{"REG": "bot:t0ken"}[k] },
	}
	return reg, digests, opts
}

func TestOCIWithTokenAuth(t *testing.T) {
	reg, digests, opts := ociWithAuth(t)
	f := newFetcher(t, opts)
	url := reg.Ref("charts/podinfo")
	for version, want := range map[string]string{"6.x": "6.8.0", "": "6.8.0", "6.7.1": "6.7.1", "<6.8.0": "6.7.1"} {
		loc := mustLocate(t, f, delivery.ChartRef{Kind: delivery.ChartInOCI, URL: url, Chart: "podinfo", Version: version}, "podinfo", want)
		if loc.Pin.Digest != digests[want] || loc.Pin.From != url {
			t.Errorf("version %q: pin %+v, want the manifest digest %s from %s", version, loc.Pin, digests[want], url)
		}
	}
	// A digest wins over the version.
	ref := delivery.ChartFromReference(url + ":6.8.0@" + digests["6.7.1"])
	mustLocate(t, f, ref, "podinfo", "6.7.1")
	mustFail(t, f, delivery.ChartFromReference(url+":9.9.9"), "no tag matches 9.9.9 (latest 7.0.0-rc.1)")
	if got := reg.Count("tags", "charts/podinfo"); got == 0 {
		t.Error("tags never listed")
	}
}

func TestOCIWrongAndMissingCredentials(t *testing.T) {
	reg, _, opts := ociWithAuth(t)
	ref := delivery.ChartFromReference(reg.Ref("charts/podinfo") + ":6.7.1")

	opts.Getenv = func(string) string { return "bot:wrong-password" }
	reason := mustFail(t, newFetcher(t, opts), ref, "401", "credentials for "+reg.Host())
	if strings.Contains(reason, "wrong-password") {
		t.Errorf("reason prints the password: %s", reason)
	}
	// Listed without auth: no credentials at all.
	mustFail(t, newFetcher(t, charts.Options{Config: listed(reg.Host())}), ref, "401")
}

func TestColdCacheOneDownloadPerDigestWarmNone(t *testing.T) {
	reg, _, opts := ociWithAuth(t)
	repo := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	repo.Add(t, chartserver.Chart(t, "metrics-server"))
	opts.Config.Hosts[repo.Host()] = config.ChartHost{}
	opts.CacheDir = t.TempDir()
	refs := []delivery.ChartRef{
		delivery.ChartFromReference(reg.Ref("charts/podinfo") + ":6.8.0"),
		{Kind: delivery.ChartInOCI, URL: reg.Ref("charts/podinfo"), Chart: "podinfo", Version: "6.x"},
		delivery.ChartFromRepository(repo.URL(), "metrics-server", "3.13.1"),
		delivery.ChartFromRepository(repo.URL(), "metrics-server", ">=3.0.0"),
	}

	cold := newFetcher(t, opts)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loc, err := cold.Locate(context.Background(), refs[i%len(refs)])
			if err != nil || loc.NotRendered != "" {
				t.Errorf("Locate: %v %s", err, loc.NotRendered)
			}
		}()
	}
	wg.Wait()
	if got := repo.Count("/metrics-server-3.13.1.tgz"); got != 1 {
		t.Errorf("HTTP archive downloaded %d times, want 1", got)
	}
	if got := reg.Count("blobs", "charts/podinfo"); got != 1 {
		t.Errorf("OCI blobs downloaded %d times, want 1 (the chart layer, once; never the config)", got)
	}
	if s := cold.Stats(); s.Downloads != 3 || s.Bytes == 0 {
		t.Errorf("cold stats %+v, want 3 downloads (an index, two archives)", s)
	}

	blobs := reg.Count("blobs", "charts/podinfo")
	warm := newFetcher(t, opts)
	for _, ref := range refs {
		if loc := locate(t, warm, ref); loc.NotRendered != "" {
			t.Fatal(loc.NotRendered)
		}
	}
	if got := repo.Count("/metrics-server-3.13.1.tgz"); got != 1 {
		t.Errorf("warm run downloaded the HTTP archive again")
	}
	if got := reg.Count("blobs", "charts/podinfo"); got != blobs {
		t.Errorf("warm run downloaded %d OCI blobs", got-blobs)
	}
	if s := warm.Stats(); s.Downloads != 0 {
		t.Errorf("warm stats %+v, want no download", s)
	}

	// Offline: the cache alone, no request at all.
	before := repo.Count("/index.yaml") + reg.Count("tags", "charts/podinfo")
	opts.Offline = true
	offline := newFetcher(t, opts)
	for _, ref := range refs {
		if loc := locate(t, offline, ref); loc.NotRendered != "" {
			t.Fatal(loc.NotRendered)
		}
	}
	if after := repo.Count("/index.yaml") + reg.Count("tags", "charts/podinfo"); after != before {
		t.Errorf("offline run made %d requests", after-before)
	}
	opts.CacheDir = t.TempDir()
	empty := newFetcher(t, opts)
	for _, ref := range refs {
		mustFail(t, empty, ref, "not in the chart cache (--offline)")
	}
}

func TestMovedTagIsANewDigest(t *testing.T) {
	reg, digests, opts := ociWithAuth(t)
	opts.CacheDir = t.TempDir()
	ref := delivery.ChartFromReference(reg.Ref("charts/podinfo") + ":6.8.0")
	before := mustLocate(t, newFetcher(t, opts), ref, "podinfo", "6.8.0")
	moved := reg.Push(t, chartserver.Altered(chartserver.WithVersion(chartserver.Chart(t, "podinfo"), "6.8.0"), "rebuilt"), "charts")
	after := mustLocate(t, newFetcher(t, opts), ref, "podinfo", "6.8.0")
	if before.Pin.Digest != digests["6.8.0"] || after.Pin.Digest != moved || moved == before.Pin.Digest {
		t.Errorf("pins %s then %s, want %s then %s", before.Pin.Digest, after.Pin.Digest, digests["6.8.0"], moved)
	}
}

func TestOCIServerErrorsRetriedOneRequestAtATime(t *testing.T) {
	reg, _, opts := ociWithAuth(t)
	reg.FailNext(2, http.StatusServiceUnavailable, "0")
	// One request at a time: a pull's token, manifest and blobs never
	// wait on a slot the pull itself holds.
	opts.PerHost = 1
	mustLocate(t, newFetcher(t, opts), delivery.ChartFromReference(reg.Ref("charts/podinfo")+":6.7.1"), "podinfo", "6.7.1")
}

// TestOCIOnlyTheChartLayerIsRead: of an artifact's layers only the one
// of the chart's media type is fetched (a provenance layer and a 20 MiB
// layer of anything else beside it are never read); an artifact with
// two chart layers, or none, is refused by name with nothing fetched,
// and so is a chart layer over the bound, before a byte of it is read.
func TestOCIOnlyTheChartLayerIsRead(t *testing.T) {
	reg := chartserver.NewOCI(t, chartserver.OCIOptions{})
	c := chartserver.Chart(t, "podinfo")
	archive := chartserver.Archive(t, c)
	chartLayer := chartserver.Layer{MediaType: registry.ChartLayerMediaType, Data: archive}
	other := chartserver.Layer{MediaType: registry.ChartLayerMediaType, Data: chartserver.Archive(t, chartserver.Altered(c, "other"))}
	reg.PushArtifact(t, "mixed/podinfo", "6.14.1",
		chartserver.Layer{MediaType: registry.ProvLayerMediaType, Data: []byte("-----BEGIN PGP SIGNED MESSAGE-----\n")},
		chartLayer,
		chartserver.Layer{MediaType: "application/octet-stream", Data: make([]byte, 20<<20)})
	reg.PushArtifact(t, "two/podinfo", "6.14.1", chartLayer, other)
	reg.PushArtifact(t, "legacy-and-new/podinfo", "6.14.1", chartLayer, chartserver.Layer{MediaType: registry.LegacyChartLayerMediaType, Data: archive})
	reg.PushArtifact(t, "legacy/podinfo", "6.14.1", chartserver.Layer{MediaType: registry.LegacyChartLayerMediaType, Data: archive})
	reg.PushArtifact(t, "none/podinfo", "6.14.1", chartserver.Layer{MediaType: "application/octet-stream", Data: archive})

	f := newFetcher(t, charts.Options{Config: listed(reg.Host())})
	loc := mustLocate(t, f, delivery.ChartFromReference(reg.Ref("mixed/podinfo")+":6.14.1"), "podinfo", "6.14.1")
	if chartserver.Digest(loc.Archive) != chartserver.Digest(archive) {
		t.Error("the archive located is not the chart layer's")
	}
	if got := reg.Count("blobs", "mixed/podinfo"); got != 1 {
		t.Errorf("%d blobs fetched, want the chart layer's alone", got)
	}
	mustLocate(t, f, delivery.ChartFromReference(reg.Ref("legacy/podinfo")+":6.14.1"), "podinfo", "6.14.1")
	for repository, words := range map[string][]string{
		"two/podinfo":            {"2 chart layers", "which one Helm would render is not known"},
		"legacy-and-new/podinfo": {"2 chart layers"},
		"none/podinfo":           {"no layer of the chart's media type " + registry.ChartLayerMediaType},
	} {
		mustFail(t, f, delivery.ChartFromReference(reg.Ref(repository)+":6.14.1"), words...)
		if got := reg.Count("blobs", repository); got != 0 {
			t.Errorf("%s: %d blobs fetched of an artifact refused", repository, got)
		}
	}

	reg.PushArtifact(t, "large/podinfo", "6.14.1", chartLayer)
	small := newFetcher(t, charts.Options{Config: listed(reg.Host())})
	small.SetLimits(0, 1000, 0)
	mustFail(t, small, delivery.ChartFromReference(reg.Ref("large/podinfo")+":6.14.1"), "is larger than")
	if got := reg.Count("blobs", "large/podinfo"); got != 0 {
		t.Errorf("a chart layer over the bound was fetched %d times", got)
	}
}
