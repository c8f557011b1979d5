package homeops_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/testkit/homeops"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// BenchmarkTargets200 times `targets --offline` of a home-ops repository
// of 202 targets (the two cluster Kustomizations, 100 apps' ks.yaml
// Kustomizations and their 100 HelmReleases, found by rendering the
// Kustomization that applies them; docs/benchmarks.md, "Listing a
// GitOps repository's targets"), warm: the chart cache is empty and
// offline, so no chart is fetched, and the first listing is not timed.
// No cluster.
//
//	go test -short -run '^$' -bench Targets200 -benchtime 5x ./internal/testkit/homeops
func BenchmarkTargets200(b *testing.B) {
	p, err := homeops.NewPlan(100, 10)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := homeops.Write(dir, p, homeops.Servers{Registry: "http://127.0.0.1:5000", HelmRepository: "http://127.0.0.1:8080/charts"}); err != nil {
		b.Fatal(err)
	}
	r := monorepo.InitRepo(b, dir)
	r.Git("remote", "add", "origin", "https://github.com/home-ops/home-ops.git")
	r.Commit("home-ops")
	b.Chdir(dir)
	args := []string{"targets", "--offline", "--chart-cache", filepath.Join(b.TempDir(), "cache")}
	list := func() string {
		var stdout, stderr bytes.Buffer
		if code := cli.Run("bench", args, &stdout, &stderr); code != 0 {
			b.Fatalf("targets: exit %d: %s", code, stderr.String())
		}
		return stdout.String()
	}
	// The header, then a row a target.
	if n := strings.Count(list(), "\n") - 1; n != 202 {
		b.Fatalf("%d targets listed, want 202", n)
	}
	for b.Loop() {
		list()
	}
}
