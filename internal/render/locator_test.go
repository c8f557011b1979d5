package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// vendoredCharts is a locator that finds every chart in one directory of
// the repository, as a fetching one will find it in its cache.
type vendoredCharts struct {
	// It fetches no schema.
	RepositoryCharts

	dir  string
	asks []delivery.ChartRef
}

func (v *vendoredCharts) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	v.asks = append(v.asks, ref)
	return delivery.LocatedChart{Dir: v.dir}, nil
}

// TestChartLocatorSeam: every Helm form renders a chart named by
// reference through Options.Charts, and without one it is not rendered,
// with the default locator's reason: a HelmRelease's HelmRepository
// chart, the helm target's OCI chart, kustomize's helmCharts with a repo.
func TestChartLocatorSeam(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "vendor/podinfo/Chart.yaml"), "apiVersion: v2\nname: podinfo\nversion: 6.7.1\n")
	writeFile(t, filepath.Join(root, "vendor/podinfo/templates/cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-podinfo\n")
	writeFile(t, filepath.Join(root, "kust/kustomization.yaml"), "helmCharts:\n- name: podinfo\n  repo: https://stefanprodan.github.io/podinfo\n  version: 6.7.1\n  releaseName: k\n")
	t.Chdir(root)
	helmRelease := map[string]any{"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease",
		"metadata": map[string]any{"name": "podinfo", "namespace": "web"},
		"spec":     map[string]any{"chart": map[string]any{"spec": map[string]any{"chart": "podinfo", "sourceRef": map[string]any{"kind": "HelmRepository", "name": "podinfo"}}}}}
	httpRef := delivery.ChartRef{Kind: delivery.ChartInHelmRepository, Chart: "podinfo", Source: &delivery.ObjectRef{Kind: "HelmRepository", Namespace: "web", Name: "podinfo"}}
	ociRef := delivery.ChartFromReference("oci://ghcr.io/stefanprodan/charts/podinfo:6.7.1")
	for _, tc := range []struct {
		name, path, object string
		d                  *delivery.Deployer
		reason             string
	}{
		{"flux", "vendor/podinfo", "ConfigMap/web/podinfo-podinfo",
			&delivery.Deployer{Controller: delivery.ControllerFlux, Object: helmRelease, File: "release.yaml", Charts: []delivery.ChartRef{httpRef}},
			"chart podinfo from HelmRepository web/podinfo: remote charts are not rendered (no network)"},
		{"helm", "vendor/podinfo", "ConfigMap/web/h-podinfo",
			&delivery.Deployer{Controller: delivery.ControllerHelm, Object: map[string]any{"chart": "oci://ghcr.io/stefanprodan/charts/podinfo:6.7.1", "release": "h", "namespace": "web"}, File: ".ownership-check.yaml", Charts: []delivery.ChartRef{ociRef}},
			"chart podinfo 6.7.1 from oci://ghcr.io/stefanprodan/charts/podinfo: remote charts are not rendered (no network)"},
		{"kustomize", "kust", "ConfigMap/default/k-podinfo", nil, "chart podinfo 6.7.1 from https://stefanprodan.github.io/podinfo: remote charts are not rendered (no network)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := RenderAll(context.Background(), []string{tc.path}, Options{Deployer: tc.d})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Objects) != 0 || len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, tc.reason) {
				t.Errorf("default locator: objects %d, not rendered %v, want %q", len(r.Objects), r.NotRendered, tc.reason)
			}
			charts := &vendoredCharts{dir: "vendor/podinfo"}
			r, err = RenderAll(context.Background(), []string{tc.path}, Options{Deployer: tc.d, Charts: charts})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.NotRendered) != 0 || len(r.Objects) != 1 || r.Objects[0].ID.String() != tc.object {
				t.Fatalf("objects %v, not rendered %v, want %s", r.Objects, r.NotRendered, tc.object)
			}
			if len(charts.asks) != 1 || charts.asks[0].Chart != "podinfo" {
				t.Errorf("the locator was asked %v", charts.asks)
			}
		})
	}
}
