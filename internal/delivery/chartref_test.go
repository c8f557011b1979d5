package delivery

import "testing"

// TestChartRefParseAndString: each form a chart is written in reads into
// its ChartRef, and names itself for notes and reasons.
func TestChartRefParseAndString(t *testing.T) {
	for _, tc := range []struct {
		got  ChartRef
		want ChartRef
		str  string
	}{
		{ChartFromRepository("https://stefanprodan.github.io/podinfo", "podinfo", "6.7.1"),
			ChartRef{Kind: ChartInHelmRepository, URL: "https://stefanprodan.github.io/podinfo", Chart: "podinfo", Version: "6.7.1"},
			"chart podinfo 6.7.1 from https://stefanprodan.github.io/podinfo"},
		{ChartFromRepository("ghcr.io/stefanprodan/charts", "podinfo", "6.x"),
			ChartRef{Kind: ChartInOCI, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Chart: "podinfo", Version: "6.x"},
			"chart podinfo 6.x from oci://ghcr.io/stefanprodan/charts/podinfo"},
		{ChartFromRepository("oci://ghcr.io/stefanprodan/charts/", "podinfo", ""),
			ChartRef{Kind: ChartInOCI, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Chart: "podinfo"},
			"chart podinfo from oci://ghcr.io/stefanprodan/charts/podinfo"},
		{ChartFromReference("oci://localhost:5000/charts/podinfo:6.7.1"),
			ChartRef{Kind: ChartInOCI, URL: "oci://localhost:5000/charts/podinfo", Chart: "podinfo", Version: "6.7.1"},
			"chart podinfo 6.7.1 from oci://localhost:5000/charts/podinfo"},
		{ChartFromReference("oci://localhost:5000/charts/podinfo@sha256:abc"),
			ChartRef{Kind: ChartInOCI, URL: "oci://localhost:5000/charts/podinfo", Chart: "podinfo", Digest: "sha256:abc"},
			"chart podinfo sha256:abc from oci://localhost:5000/charts/podinfo"},
		{ChartFromReference("https://example.com/podinfo-6.7.1.tgz"),
			ChartRef{Kind: ChartInHelmRepository, URL: "https://example.com/podinfo-6.7.1.tgz"},
			"chart from https://example.com/podinfo-6.7.1.tgz"},
		{ChartFromReference("charts/web"), ChartRef{Kind: ChartInRepository, Path: "charts/web"}, "chart charts/web"},
		{ChartRef{Kind: ChartInFluxSource, Source: &ObjectRef{Kind: "OCIRepository", Namespace: "flux-system", Name: "podinfo"}},
			ChartRef{Kind: ChartInFluxSource, Source: &ObjectRef{Kind: "OCIRepository", Namespace: "flux-system", Name: "podinfo"}},
			"chart from OCIRepository flux-system/podinfo"},
		{ChartRef{Kind: ChartInGit, URL: "https://github.com/example/charts", Path: "charts/web", Version: "main"},
			ChartRef{Kind: ChartInGit, URL: "https://github.com/example/charts", Path: "charts/web", Version: "main"},
			"chart charts/web main from https://github.com/example/charts"},
	} {
		if !equalRef(tc.got, tc.want) {
			t.Errorf("got %+v, want %+v", tc.got, tc.want)
		}
		if s := tc.got.String(); s != tc.str {
			t.Errorf("String: got %q, want %q", s, tc.str)
		}
	}
}

func equalRef(a, b ChartRef) bool {
	if (a.Source == nil) != (b.Source == nil) || a.Source != nil && *a.Source != *b.Source {
		return false
	}
	a.Source, b.Source = nil, nil
	return a == b
}
