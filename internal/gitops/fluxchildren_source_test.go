package gitops

import (
	"context"
	"reflect"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestDiscoverChartSourceBesideRelease: an app folder a Kustomization
// applies holds the HelmRelease and the OCIRepository its chartRef names
// (cluster-template's layout): the render's OCIRepository fills in the
// chart's URL and tag, in the namespace the Kustomization puts both in.
func TestDiscoverChartSourceBesideRelease(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"clusters/c/apps.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: echo, namespace: flux-system}
spec:
  path: ./apps/echo
  targetNamespace: default
  sourceRef: {kind: GitRepository, name: flux-system}
`,
		"apps/echo/kustomization.yaml": "resources: [helmrelease.yaml, ocirepository.yaml]\n",
		"apps/echo/helmrelease.yaml":   "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: echo}\nspec:\n  chartRef: {kind: OCIRepository, name: echo}\n",
		"apps/echo/ocirepository.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: echo}\nspec:\n  url: oci://ghcr.io/mendhak/http-https-echo-chart\n  ref: {tag: 1.0.0}\n",
	})
	repo.RenderParent = renderParent
	got, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []delivery.ChartRef{{Kind: delivery.ChartInFluxSource, URL: "oci://ghcr.io/mendhak/http-https-echo-chart", Version: "1.0.0",
		Source: &delivery.ObjectRef{Kind: "OCIRepository", Namespace: "default", Name: "echo"}}}
	for _, g := range got {
		if g.Name == "HelmRelease/echo.default" {
			if !reflect.DeepEqual(g.Deployer.Charts, want) {
				t.Errorf("charts %+v, want %+v", g.Deployer.Charts, want)
			}
			return
		}
	}
	t.Errorf("no target HelmRelease/echo.default in %+v", got)
}
