package gitops

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// TestDiscoverHelmReleases: a HelmRelease of a chart in this repository
// is checked with the chart's folder as its path and its valuesFrom
// sources' files among its inputs; one whose chart is fetched, or that
// releases elsewhere, is listed with the reason naming its source.
func TestDiscoverHelmReleases(t *testing.T) {
	hr := func(name, spec string) string {
		return "---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + name + ", namespace: web}\nspec:\n" + spec
	}
	git := "  chart:\n    spec:\n      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n"
	repo := writeRepo(t, map[string]string{
		"clusters/c/releases.yaml": hr("git", git+"  valuesFrom: [{kind: ConfigMap, name: web-values}, {kind: Secret, name: elsewhere, optional: true}]\n") +
			hr("helmrepo", "  chart:\n    spec:\n      chart: podinfo\n      sourceRef: {kind: HelmRepository, name: podinfo}\n") +
			hr("oci", "  chartRef: {kind: OCIRepository, name: podinfo, namespace: flux-system}\n") +
			hr("other", "  chart:\n    spec:\n      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: other}\n") +
			hr("remote-cluster", git+"  kubeConfig: {secretRef: {name: edge}}\n") +
			hr("suspended", git+"  suspend: true\n") +
			"---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: other, namespace: web}\nspec: {url: https://github.com/example/charts}\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web-values, namespace: web}\ndata: {values.yaml: 'a: 1'}\n",
		"charts/web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 1.0.0\n",
	})
	got, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	const (
		f  = "clusters/c/releases.yaml"
		hc = "helm-controller"
	)
	p := func(s ...string) []string { return s }
	assertTargets(t, got, []want{
		{"HelmRelease/git.web", "flux", f, p("charts/web"), hc, "c", "", p(f), nil},
		{"HelmRelease/helmrepo.web", "flux", f, p(f), hc, "c", "chart podinfo from HelmRepository web/podinfo: remote charts are not rendered (no network)", p(f), nil},
		{"HelmRelease/oci.web", "flux", f, p(f), hc, "c", "chart from OCIRepository flux-system/podinfo: remote charts are not rendered (no network)", p(f), nil},
		{"HelmRelease/other.web", "flux", f, nil, hc, "c", "source GitRepository web/other is https://github.com/example/charts: another repository", p(f), nil},
		{"HelmRelease/remote-cluster.web", "flux", f, p("charts/web"), hc, "c", "spec.kubeConfig: helm-controller releases it to another cluster, not the discover entry's", p(f), nil},
		{"HelmRelease/suspended.web", "flux", f, p("charts/web"), hc, "c", "suspended", p(f), nil},
	})
}
