package source

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestRepositoryChartsReasons: the default locator finds a chart of this
// repository and gives any other form the reason a target not checked
// has always had for it.
func TestRepositoryChartsReasons(t *testing.T) {
	helmRepo := &delivery.ObjectRef{Kind: "HelmRepository", Namespace: "web", Name: "podinfo"}
	for _, tc := range []struct {
		ref  delivery.ChartRef
		want string
	}{
		{delivery.ChartRef{Kind: delivery.ChartInHelmRepository, Chart: "podinfo", Version: "6.x", Source: helmRepo},
			"chart podinfo from HelmRepository web/podinfo: remote charts are not rendered (no network)"},
		{delivery.ChartRef{Kind: delivery.ChartInFluxSource, Source: &delivery.ObjectRef{Kind: "OCIRepository", Namespace: "flux-system", Name: "podinfo"}},
			"chart from OCIRepository flux-system/podinfo: remote charts are not rendered (no network)"},
		{delivery.ChartFromRepository("https://stefanprodan.github.io/podinfo", "podinfo", "6.7.1"),
			"chart podinfo 6.7.1 from https://stefanprodan.github.io/podinfo: remote charts are not rendered (no network)"},
		{delivery.ChartFromReference("oci://ghcr.io/stefanprodan/charts/podinfo:6.7.1"),
			"chart podinfo 6.7.1 from oci://ghcr.io/stefanprodan/charts/podinfo: remote charts are not rendered (no network)"},
		{delivery.ChartRef{Kind: delivery.ChartInGit, URL: "https://github.com/example/charts", Path: "charts/web"},
			"chart charts/web from https://github.com/example/charts: remote charts are not rendered (no network)"},
		{delivery.ChartFromReference("charts/web"), ""},
	} {
		loc, err := RepositoryCharts{}.Locate(context.Background(), tc.ref)
		if err != nil || loc.NotRendered != tc.want {
			t.Errorf("%v: %q (%v), want %q", tc.ref, loc.NotRendered, err, tc.want)
		}
		if tc.want == "" && loc.Dir != tc.ref.Path {
			t.Errorf("%v: dir %q", tc.ref, loc.Dir)
		}
		reason, err := ChartsNotRendered(context.Background(), nil, []delivery.ChartRef{delivery.ChartFromReference("charts/web"), tc.ref})
		if err != nil || reason != tc.want {
			t.Errorf("ChartsNotRendered %v: %q (%v), want %q", tc.ref, reason, err, tc.want)
		}
	}
}
