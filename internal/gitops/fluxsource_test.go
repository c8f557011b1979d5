package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// TestDiscoverFluxArtifact: a GitRepository's spec.ignore is written on
// each of its targets' objects for render, and a path where its
// spec.include puts another repository's files is not checked; the
// entry's strictSubstitution is written on its Kustomizations.
func TestDiscoverFluxArtifact(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"clusters/c/source.yaml": `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: flux-system, namespace: flux-system}
spec:
  url: https://github.com/example/platform
  ignore: |
    /apps/**/*.md
    !/apps/README.md
  include:
    - repository: {name: shared}
      toPath: vendor/shared
    - repository: {name: policies}
`,
		"clusters/c/apps.yaml":     strings.Replace(fluxKustomization, "%s", "apps", 1),
		"clusters/c/shared.yaml":   strings.NewReplacer("%s", "shared", "./apps", "./vendor/shared/base").Replace(fluxKustomization),
		"clusters/c/policies.yaml": strings.NewReplacer("%s", "policies", "./apps", "policies").Replace(fluxKustomization),
		"clusters/c/web.yaml": `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: web, namespace: flux-system}
spec:
  chart:
    spec:
      chart: ./charts/web
      sourceRef: {kind: GitRepository, name: flux-system}
`,
		"apps/kustomization.yaml":               "resources: []\n",
		"charts/web/Chart.yaml":                 "apiVersion: v2\nname: web\nversion: 1.0.0\n",
		"vendor/shared/base/kustomization.yaml": "resources: []\n",
		"policies/kustomization.yaml":           "resources: []\n",
	})
	got, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c", StrictSubstitution: true}})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Target{}
	for _, g := range got {
		byName[g.Name] = g
	}
	for _, name := range []string{"flux-system/apps", "HelmRelease/web.flux-system"} {
		g := byName[name]
		if !g.Checked() || !strings.Contains(g.Deployer.SourceIgnore, "/apps/**/*.md") {
			t.Errorf("%s: reason %q, source ignore %q; want it checked with its source's spec.ignore", name, g.Reason, g.Deployer.SourceIgnore)
		}
	}
	if !byName["flux-system/apps"].Deployer.StrictSubstitution {
		t.Error("apps: want the entry's strictSubstitution")
	}
	if r := byName["flux-system/shared"].Reason; !strings.Contains(r, "path vendor/shared/base is where GitRepository flux-system/flux-system includes GitRepository shared") {
		t.Errorf("shared: reason %q", r)
	}
	if r := byName["flux-system/policies"].Reason; !strings.Contains(r, "includes GitRepository policies") {
		t.Errorf("policies (toPath defaults to the included repository's name): reason %q", r)
	}
}
