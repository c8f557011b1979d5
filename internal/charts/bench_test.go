package charts_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// BenchmarkLocate160Over40 locates 160 releases' charts over 40
// distinct charts (half OCI, half an HTTP repository), 16 at once as
// targets runs them: cold (an empty cache) and warm (the cache of a
// previous run), the shape of the benchmark in docs/benchmarks.md.
func BenchmarkLocate160Over40(b *testing.B) {
	reg := chartserver.NewOCI(b, chartserver.OCIOptions{User: "u", Password: "p"})
	repo := chartserver.NewHTTPRepo(b, chartserver.HTTPOptions{})
	c := chartserver.Chart(b, "podinfo")
	var refs []delivery.ChartRef
	for i := range 40 {
		name := fmt.Sprintf("app-%02d", i)
		if i%2 == 0 {
			reg.Push(b, chartserver.WithName(c, name), "charts")
			refs = append(refs, delivery.ChartFromReference(reg.Ref("charts/"+name)+":6.x"))
		} else {
			repo.Add(b, chartserver.WithName(c, name))
			refs = append(refs, delivery.ChartFromRepository(repo.URL(), name, "6.14.1"))
		}
	}
	opts := charts.Options{
		Config: listed(reg.Host(), repo.Host()),
		Getenv: func(string) string { return "u:p" },
	}
	delete(opts.Config.Hosts, reg.Host())
	opts.Config.Hosts[reg.URL()] = envAuth("REG")
	run := func(b *testing.B, dir string) charts.Stats {
		opts.CacheDir = dir
		f, err := charts.New(opts)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		parallel.For(160, 16, func(i int) {
			loc, err := f.Locate(context.Background(), refs[i%40])
			if err != nil || loc.NotRendered != "" {
				b.Errorf("%v %s", err, loc.NotRendered)
			}
		})
		return f.Stats()
	}
	b.Run("cold", func(b *testing.B) {
		var s charts.Stats
		for range b.N {
			s = run(b, b.TempDir())
		}
		b.ReportMetric(float64(s.Downloads), "downloads/op")
		b.ReportMetric(float64(s.Bytes), "bytes-fetched/op")
	})
	b.Run("warm", func(b *testing.B) {
		dir := b.TempDir()
		run(b, dir)
		b.ResetTimer()
		var s charts.Stats
		for range b.N {
			s = run(b, dir)
		}
		b.ReportMetric(float64(s.Downloads), "downloads/op")
		b.ReportMetric(float64(s.Bytes), "bytes-fetched/op")
	})
}
