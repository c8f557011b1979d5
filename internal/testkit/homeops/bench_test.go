package homeops_test

import (
	"context"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/charts"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// BenchmarkHomeOps160 times remote charts at a large home-ops repository's
// size: 160 HelmReleases over 40 charts (docs/benchmarks.md, "Remote
// charts"), on the real API server, every release deployed as Helm
// renders it:
//
//   - cold-fetch: every distinct chart the releases name fetched into an
//     empty cache by one Fetcher (seconds and bytes per run);
//
//   - check-all-cold, check-all-warm: `check --target all` with an empty
//     cache and with the cache warm;
//
//   - bump-pr: the pull request that bumps the shared chart's
//     OCIRepository, `check --changed-from main --base main`.
//
//     go test -run '^$' -bench HomeOps160 -benchtime 3x ./internal/testkit/homeops
func BenchmarkHomeOps160(b *testing.B) {
	testcluster.Require(b, cluster)
	s := newSite(b, 160, 40)
	s.deploy()
	refs := s.chartRefs()

	b.Run("cold-fetch", func(b *testing.B) {
		var bytes int64
		var downloads int
		for b.Loop() {
			b.StopTimer()
			cache := b.TempDir()
			b.StartTimer()
			st := s.fetchAll(b, refs, cache)
			bytes += st.Bytes
			downloads += st.Downloads
		}
		b.ReportMetric(float64(bytes)/float64(b.N), "bytes/op")
		b.ReportMetric(float64(downloads)/float64(b.N), "downloads/op")
		b.ReportMetric(float64(len(refs)), "charts")
	})
	b.Run("check-all-cold", func(b *testing.B) {
		warm := s.cache
		defer func() { s.cache = warm }()
		for b.Loop() {
			b.StopTimer()
			s.cache = b.TempDir()
			b.StartTimer()
			s.mustRun(b, "check", "--target", "all", "--output", "json")
		}
	})
	b.Run("check-all-warm", func(b *testing.B) {
		s.mustRun(b, "check", "--target", "all", "--output", "json") // fills the cache
		for b.Loop() {
			s.mustRun(b, "check", "--target", "all", "--output", "json")
		}
	})
	b.Run("bump-pr", func(b *testing.B) {
		s.bumpShared(b)
		_, reps, _ := s.checkJSON("--changed-from", "main", "--base", "main")
		for b.Loop() {
			s.mustRun(b, "check", "--changed-from", "main", "--base", "main", "--output", "json")
		}
		b.ReportMetric(float64(len(s.plan.Using(0))), "releases")
		b.ReportMetric(float64(len(reps)), "targets")
	})
}

// chartRefs are the distinct charts the site's HelmReleases name, as
// discovery reads them.
func (s *site) chartRefs() []delivery.ChartRef {
	s.t.Helper()
	seen := map[string]bool{}
	var refs []delivery.ChartRef
	for _, t := range s.list() {
		if t.Deployer == nil {
			continue
		}
		for _, r := range t.Deployer.Charts {
			key := r.Kind + " " + r.URL + " " + r.Chart + " " + r.Version + " " + r.Digest
			if !seen[key] {
				seen[key] = true
				refs = append(refs, r)
			}
		}
	}
	return refs
}

// fetchAll locates every ref with one Fetcher over cache, as a run's
// targets share one: what a cold cache costs.
func (s *site) fetchAll(tb testing.TB, refs []delivery.ChartRef, cache string) charts.Stats {
	tb.Helper()
	f, err := charts.New(charts.Options{Config: s.config().Charts, CacheDir: cache})
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, r := range refs {
		got, err := f.Locate(ctx, r)
		if err != nil || got.NotRendered != "" {
			tb.Fatalf("%s: %v %s", r, err, got.NotRendered)
		}
	}
	return f.Stats()
}

// mustRun runs the CLI and fails on an exit other than 0 or 1.
func (s *site) mustRun(tb testing.TB, args ...string) {
	tb.Helper()
	if code, stdout, stderr := s.run(args...); code > 1 {
		tb.Fatalf("%v: exit %d\n%s\n%s", args, code, stdout, stderr)
	}
}
