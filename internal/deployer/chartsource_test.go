package deployer

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

const (
	clusterDigest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	baseDigest    = "sha256:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
)

func fluxRelease(chart delivery.ChartRef) *delivery.Deployer {
	return &delivery.Deployer{Controller: delivery.ControllerFlux, Charts: []delivery.ChartRef{chart},
		Object: map[string]any{"metadata": map[string]any{"name": "podinfo", "namespace": "apps"}}}
}

// TestChartSourceOf: the object whose artifact a HelmRelease releases: a
// chartRef's own, or the HelmChart helm-controller makes for a
// HelmRepository's chart; none for a chart of this repository.
func TestChartSourceOf(t *testing.T) {
	for _, c := range []struct {
		chart delivery.ChartRef
		want  string
	}{
		{delivery.ChartRef{Kind: delivery.ChartInFluxSource, Source: &delivery.ObjectRef{Kind: "OCIRepository", Namespace: "flux-system", Name: "podinfo"}}, "OCIRepository flux-system/podinfo"},
		{delivery.ChartRef{Kind: delivery.ChartInFluxSource, Source: &delivery.ObjectRef{Kind: "HelmChart", Namespace: "flux-system", Name: "nginx"}}, "HelmChart flux-system/nginx"},
		{delivery.ChartRef{Kind: delivery.ChartInHelmRepository, Chart: "podinfo", Source: &delivery.ObjectRef{Kind: "HelmRepository", Namespace: "flux-system", Name: "podinfo"}}, "HelmChart flux-system/apps-podinfo"},
		{delivery.ChartRef{Kind: delivery.ChartInOCI, Chart: "podinfo", Source: &delivery.ObjectRef{Kind: "HelmRepository", Namespace: "apps", Name: "podinfo"}}, "HelmChart apps/apps-podinfo"},
		{delivery.ChartRef{Kind: delivery.ChartInRepository, Path: "charts/web", Source: &delivery.ObjectRef{Kind: "GitRepository", Namespace: "flux-system", Name: "flux-system"}}, ""},
	} {
		ref, ok := ChartSourceOf(fluxRelease(c.chart))
		if got := ref.String(); ok != (c.want != "") || ok && got != c.want {
			t.Errorf("%s: %q %v, want %q", c.chart, got, ok, c.want)
		}
	}
	if _, ok := ChartSourceOf(&delivery.Deployer{Controller: delivery.ControllerArgoCD, Charts: []delivery.ChartRef{{Kind: delivery.ChartInOCI, Source: &delivery.ObjectRef{Kind: "HelmRepository"}}}}); ok {
		t.Error("an Argo CD source has a Flux source object")
	}
}

// TestClusterChartNote: the artifact's revision and digest against the
// base's pin: digests decide when both are known, else versions; no
// artifact, no note.
func TestClusterChartNote(t *testing.T) {
	oci := delivery.ObjectRef{Kind: "OCIRepository", Namespace: "flux-system", Name: "podinfo"}
	hc := delivery.ObjectRef{Kind: "HelmChart", Namespace: "flux-system", Name: "apps-podinfo"}
	status := func(rev, digest string) map[string]any {
		return map[string]any{"status": map[string]any{"artifact": map[string]any{"revision": rev, "digest": digest}}}
	}
	base := []delivery.ChartPin{{Name: "podinfo", Version: "6.7.1", Digest: baseDigest, From: "oci://ghcr.io/stefanprodan/charts/podinfo"}}
	if n := artifactOf(oci, status("6.7.0@"+clusterDigest, "sha256:tarball")).Note(base, "the base names"); n != "the cluster runs podinfo 6.7.0@sha256:0123456789ab (OCIRepository flux-system/podinfo's artifact), the base names podinfo 6.7.1@sha256:fedcba987654: what it names is not deployed yet, or the cluster has not reconciled it" {
		t.Errorf("OCIRepository: %q", n)
	}
	if n := artifactOf(oci, status("6.7.1@"+baseDigest, "sha256:tarball")).Note(base, "the base names"); n != "" {
		t.Errorf("the same manifest: %q", n)
	}
	if n := artifactOf(hc, status("6.7.0", clusterDigest)).Note(base, "the base names"); !strings.Contains(n, "runs podinfo 6.7.0@sha256:0123456789ab (HelmChart flux-system/apps-podinfo's artifact)") {
		t.Errorf("HelmChart: %q", n)
	}
	if n := artifactOf(hc, status("6.7.1", "")).Note(base, "the base names"); n != "" {
		t.Errorf("the same version, no digest: %q", n)
	}
	// A HelmChart of an OCI HelmRepository holds the chart's archive,
	// whose digest is not the manifest's the pin names: versions decide.
	if n := artifactOf(hc, status("6.7.1", clusterDigest)).Note(base, "the base names"); n != "" {
		t.Errorf("a HelmChart of an OCI chart at the same version: %q", n)
	}
	http := []delivery.ChartPin{{Name: "podinfo", Version: "6.7.1", Digest: baseDigest, From: "https://stefanprodan.github.io/podinfo"}}
	if n := artifactOf(hc, status("6.7.1", clusterDigest)).Note(http, "the base names"); n == "" {
		t.Error("a HelmChart of an HTTP chart with another archive at the same version: no note")
	}
	if c := artifactOf(hc, map[string]any{}); c != nil || c.Note(base, "the base names") != "" {
		t.Errorf("no artifact yet: %+v", c)
	}
}
