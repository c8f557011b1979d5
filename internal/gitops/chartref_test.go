package gitops

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestDiscoverChartRefs: where each HelmRelease and Argo CD Helm source
// takes its chart from is parsed once onto its Deployer, the Flux source
// object's URL and reference filled in when it is beside the release.
func TestDiscoverChartRefs(t *testing.T) {
	hr := func(name, spec string) string {
		return "---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + name + ", namespace: web}\nspec:\n" + spec
	}
	src := func(kind, name, spec string) string {
		return "---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: " + kind + "\nmetadata: {name: " + name + ", namespace: flux-system}\nspec:\n" + spec
	}
	app := func(name, source string) string {
		return "---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: " + name + ", namespace: argocd}\nspec:\n  project: default\n  destination: {server: https://kubernetes.default.svc, namespace: web}\n  source:\n" + source
	}
	repo := writeRepo(t, map[string]string{
		"clusters/c/releases.yaml": hr("oci", "  chartRef: {kind: OCIRepository, name: podinfo, namespace: flux-system}\n") +
			hr("oci-elsewhere", "  chartRef: {kind: OCIRepository, name: absent}\n") +
			hr("helmchart", "  chartRef: {kind: HelmChart, name: podinfo, namespace: flux-system}\n") +
			hr("oci-layer", "  chartRef: {kind: OCIRepository, name: manifests, namespace: flux-system}\n") +
			src("OCIRepository", "manifests", "  url: oci://ghcr.io/example/manifests\n  ref: {tag: v1}\n  layerSelector: {mediaType: application/vnd.cncf.flux.content.v1.tar+gzip, operation: extract}\n") +
			src("OCIRepository", "podinfo-layer", "  url: oci://ghcr.io/stefanprodan/charts/podinfo\n  ref: {tag: 6.7.1}\n  layerSelector: {mediaType: application/vnd.cncf.helm.chart.content.v1.tar+gzip, operation: copy}\n") +
			hr("oci-helm-layer", "  chartRef: {kind: OCIRepository, name: podinfo-layer, namespace: flux-system}\n") +
			hr("helmchart-beside", "  chartRef: {kind: HelmChart, name: podinfo-oci, namespace: flux-system}\n") +
			hr("helmchart-git", "  chartRef: {kind: HelmChart, name: web, namespace: flux-system}\n") +
			hr("http", "  chart:\n    spec:\n      chart: podinfo\n      version: 6.x\n      sourceRef: {kind: HelmRepository, name: podinfo, namespace: flux-system}\n") +
			hr("helm-oci", "  chart:\n    spec:\n      chart: podinfo\n      version: 6.7.1\n      sourceRef: {kind: HelmRepository, name: podinfo-oci, namespace: flux-system}\n") +
			hr("git", "  chart:\n    spec:\n      chart: ./charts/web\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n") +
			src("OCIRepository", "podinfo", "  interval: 10m\n  url: oci://ghcr.io/stefanprodan/charts/podinfo\n  ref: {semver: '>=6.0.0', tag: latest}\n") +
			src("HelmRepository", "podinfo", "  url: https://stefanprodan.github.io/podinfo\n") +
			src("HelmRepository", "podinfo-oci", "  type: oci\n  url: oci://ghcr.io/stefanprodan/charts\n") +
			src("HelmChart", "podinfo-oci", "  chart: podinfo\n  version: 6.x\n  sourceRef: {kind: HelmRepository, name: podinfo-oci}\n") +
			src("HelmChart", "web", "  chart: ./charts/web\n  sourceRef: {kind: GitRepository, name: flux-system}\n"),
		"argocd/apps.yaml": app("http", "    repoURL: https://stefanprodan.github.io/podinfo\n    chart: podinfo\n    targetRevision: 6.7.1\n") +
			app("oci", "    repoURL: ghcr.io/stefanprodan/charts\n    chart: podinfo\n    targetRevision: 6.7.1\n"),
		"charts/web/Chart.yaml": "apiVersion: v2\nname: web\nversion: 1.0.0\n",
	})
	got, err := Discover(context.Background(), repo, []config.Discover{
		{Flux: "clusters/c", Context: "c"},
		{ArgoCD: "argocd", Clusters: map[string]string{"https://kubernetes.default.svc": "hub"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	fluxObj := func(kind, ns, name string) *delivery.ObjectRef {
		return &delivery.ObjectRef{Kind: kind, Namespace: ns, Name: name}
	}
	want := map[string]delivery.ChartRef{
		"HelmRelease/oci.web": {Kind: delivery.ChartInFluxSource, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Version: ">=6.0.0",
			Source: fluxObj("OCIRepository", "flux-system", "podinfo")},
		"HelmRelease/oci-elsewhere.web": {Kind: delivery.ChartInFluxSource, Source: fluxObj("OCIRepository", "web", "absent")},
		"HelmRelease/helmchart.web":     {Kind: delivery.ChartInFluxSource, Source: fluxObj("HelmChart", "flux-system", "podinfo")},
		"HelmRelease/oci-helm-layer.web": {Kind: delivery.ChartInFluxSource, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Version: "6.7.1",
			Source: fluxObj("OCIRepository", "flux-system", "podinfo-layer")},
		"HelmRelease/helmchart-beside.web": {Kind: delivery.ChartInOCI, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Chart: "podinfo", Version: "6.x",
			Source: fluxObj("HelmChart", "flux-system", "podinfo-oci")},
		"HelmRelease/helmchart-git.web": {Kind: delivery.ChartInRepository, Path: "charts/web", Source: fluxObj("GitRepository", "flux-system", "flux-system")},
		"HelmRelease/http.web": {Kind: delivery.ChartInHelmRepository, URL: "https://stefanprodan.github.io/podinfo", Chart: "podinfo", Version: "6.x",
			Source: fluxObj("HelmRepository", "flux-system", "podinfo")},
		"HelmRelease/helm-oci.web": {Kind: delivery.ChartInOCI, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Chart: "podinfo", Version: "6.7.1",
			Source: fluxObj("HelmRepository", "flux-system", "podinfo-oci")},
		"HelmRelease/git.web": {Kind: delivery.ChartInRepository, Path: "charts/web", Source: fluxObj("GitRepository", "flux-system", "flux-system")},
		"http":                {Kind: delivery.ChartInHelmRepository, URL: "https://stefanprodan.github.io/podinfo", Chart: "podinfo", Version: "6.7.1"},
		"oci":                 {Kind: delivery.ChartInOCI, URL: "oci://ghcr.io/stefanprodan/charts/podinfo", Chart: "podinfo", Version: "6.7.1"},
	}
	if len(got) != len(want)+1 {
		t.Fatalf("%d targets, want %d", len(got), len(want))
	}
	for _, g := range got {
		if g.Name == "HelmRelease/oci-layer.web" {
			// Another layer than the chart's is helm-controller's to read.
			if !strings.Contains(g.Reason, "spec.layerSelector.mediaType application/vnd.cncf.flux.content.v1.tar+gzip is not a Helm chart's layer") {
				t.Errorf("%s: reason %q", g.Name, g.Reason)
			}
			continue
		}
		w, ok := want[g.Name]
		if !ok {
			t.Errorf("unexpected target %s", g.Name)
			continue
		}
		if !reflect.DeepEqual(g.Deployer.Charts, []delivery.ChartRef{w}) {
			t.Errorf("%s: charts %#v, want %#v", g.Name, g.Deployer.Charts, w)
		}
		if g.Reason != "" {
			t.Errorf("%s: discovery decided %q: whether a chart renders is the locator's", g.Name, g.Reason)
		}
		// A chart from outside the repository renders for the deployer's
		// own file, which selection already takes as the target's input.
		if wantPaths := []string{g.Object}; !w.InRepository() && !reflect.DeepEqual(g.Paths, wantPaths) {
			t.Errorf("%s: paths %v, want %v", g.Name, g.Paths, wantPaths)
		}
	}
}

// TestChartSourceInputs: a HelmRelease's chart source objects are its
// inputs, a HelmChart's own HelmRepository too: a pull request that moves
// one selects every release of it.
func TestChartSourceInputs(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"clusters/c/apps/web.yaml":      "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: web, namespace: web}\nspec:\n  chartRef: {kind: HelmChart, name: podinfo, namespace: flux-system}\n",
		"clusters/c/sources/chart.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmChart\nmetadata: {name: podinfo, namespace: flux-system}\nspec:\n  chart: podinfo\n  version: 6.x\n  sourceRef: {kind: HelmRepository, name: podinfo}\n",
		"clusters/c/sources/repo.yaml":  "apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: podinfo, namespace: flux-system}\nspec:\n  url: https://stefanprodan.github.io/podinfo\n",
	})
	got, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d targets", len(got))
	}
	want := []string{"clusters/c/apps/web.yaml", "clusters/c/sources/chart.yaml", "clusters/c/sources/repo.yaml"}
	if !reflect.DeepEqual(got[0].Inputs, want) || !reflect.DeepEqual(got[0].Paths, want[:1]) {
		t.Errorf("inputs %v, paths %v, want inputs %v", got[0].Inputs, got[0].Paths, want)
	}
}
