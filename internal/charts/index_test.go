package charts_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"
)

// bigIndex is repo's index grown to about size bytes with charts of 100
// versions each, named before and after repo's own so that these sit in
// the middle, written as `helm repo index` writes an index.
func bigIndex(t testing.TB, repoIndex []byte, size int) []byte {
	t.Helper()
	filler := repo.NewIndexFile()
	for v := range 100 {
		md := &chart.Metadata{
			APIVersion: chart.APIVersionV2, Name: "filler", Version: fmt.Sprintf("1.%d.0", v), AppVersion: fmt.Sprintf("v1.%d.0", v),
			Description: "A chart that only makes the repository's index large, as a public repository of many charts is.",
			Home:        "https://example.com/filler", Keywords: []string{"filler", "index"},
			Maintainers: []*chart.Maintainer{{Name: "someone", Email: "someone@example.com"}},
		}
		if err := filler.MustAdd(md, fmt.Sprintf("filler-1.%d.0.tgz", v), "", strings.Repeat("ab", 32)); err != nil {
			t.Fatal(err)
		}
	}
	block := entriesOf(t, filler)
	own := entriesOf(t, mustLoad(t, repoIndex))
	var b bytes.Buffer
	b.WriteString("apiVersion: v1\nentries:\n")
	per := len(bytes.ReplaceAll(block, []byte("filler"), []byte("app-00000")))
	n := (size - len(own) - 64) / per
	for i := range n {
		if i == n/2 {
			b.Write(own)
		}
		name := fmt.Sprintf("app-%05d", i)
		if i >= n/2 {
			name = fmt.Sprintf("web-%05d", i)
		}
		b.Write(bytes.ReplaceAll(block, []byte("filler"), []byte(name)))
	}
	b.WriteString("generated: \"2024-01-01T00:00:00Z\"\n")
	return b.Bytes()
}

func mustLoad(t testing.TB, b []byte) *repo.IndexFile {
	t.Helper()
	var i repo.IndexFile
	if err := yaml.Unmarshal(b, &i); err != nil {
		t.Fatal(err)
	}
	return &i
}

// entriesOf is the lines of index's entries as Helm writes them (each
// chart's key indented by two spaces).
func entriesOf(t testing.TB, index *repo.IndexFile) []byte {
	t.Helper()
	b, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := bytes.Cut(b, []byte("entries:\n"))
	entries, _, _ := bytes.Cut(rest, []byte("generated:"))
	return entries
}

// peakHeap runs f and gives the most heap its objects took above what
// they took before it (sampled every millisecond while f runs) and the
// bytes it allocated.
func peakHeap(f func()) (peak, allocated uint64) {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	base, alloc0 := sample[0].Value.Uint64(), sample[1].Value.Uint64()
	var mu sync.Mutex
	high := base
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				metrics.Read(s)
				mu.Lock()
				high = max(high, s[0].Value.Uint64())
				mu.Unlock()
			}
		}
	}()
	f()
	close(done)
	wg.Wait()
	metrics.Read(sample)
	mu.Lock()
	defer mu.Unlock()
	high = max(high, sample[0].Value.Uint64())
	return high - base, sample[1].Value.Uint64() - alloc0
}

// TestIndexOf48MiBInBoundedMemory: a 48 MiB index.yaml (about 120,000
// chart versions) costs the fetch of one of its charts a bounded heap:
// the index is streamed to the cache and only the wanted chart's entries
// are parsed. The numbers are docs/benchmarks.md's.
func TestIndexOf48MiBInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a 48 MiB index")
	}
	r := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	r.Add(t, chartserver.Chart(t, "podinfo"))
	f := newFetcher(t, charts.Options{Config: listed(r.Host())})
	ref := delivery.ChartFromRepository(r.URL(), "podinfo", "6.x")
	loc := locate(t, f, delivery.ChartFromRepository(r.URL(), "podinfo", "6.14.1"))
	if loc.NotRendered != "" {
		t.Fatal(loc.NotRendered)
	}
	big := bigIndex(t, indexOf(t, r), 48<<20)
	r.Serve("/index.yaml", big)
	f = newFetcher(t, charts.Options{Config: listed(r.Host())})
	var got delivery.LocatedChart
	peak, allocated := peakHeap(func() {
		var err error
		got, err = f.Locate(context.Background(), ref)
		if err != nil {
			t.Error(err)
		}
	})
	t.Logf("index of %.1f MiB: heap peak %.1f MiB above the start, %.1f MiB allocated, %d bytes fetched", float64(len(big))/(1<<20), float64(peak)/(1<<20), float64(allocated)/(1<<20), f.Stats().Bytes)
	if got.NotRendered != "" || got.Pin.Version != "6.14.1" {
		t.Fatalf("located %+v", got)
	}
	if peak > 256<<20 {
		t.Errorf("heap peak %d MiB for a %d MiB index: unbounded", peak>>20, len(big)>>20)
	}
}

// indexOf is the index r serves.
func indexOf(t *testing.T, r *chartserver.HTTPRepo) []byte {
	t.Helper()
	resp, err := http.Get(r.URL() + "/index.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
