package gitops

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
)

// publicTree is a public GitOps repository of testdata/public, with the
// URLs its config names it by.
func publicTree(t testing.TB, name string) (Repository, []config.Discover) {
	t.Helper()
	root := "../../testdata/public/" + name
	cfg, err := config.Load(root + "/" + config.DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	return Repository{Root: root, URLs: cfg.Repositories}, cfg.Discover
}

// TestDiscoverFluxExample: fluxcd/flux2-kustomize-helm-example's
// Kustomizations read ExternalArtifacts its ArtifactGenerators copy from
// the bootstrap GitRepository: each is a target whose path is the folder
// its artifact's path is copied from, and whose render leaves out every
// folder the artifact lacks.
func TestDiscoverFluxExample(t *testing.T) {
	repo, entries := publicTree(t, "flux2-kustomize-helm-example")
	got, err := Discover(context.Background(), repo, entries)
	if err != nil {
		t.Fatal(err)
	}
	const flux, kc = "flux", "kustomize-controller"
	p := func(s ...string) []string { return s }
	wants := []want{
		{"production/flux-system/apps", flux, "clusters/production/apps.yaml", p("apps/production"), kc, "production", "", p("clusters/production/apps.yaml"), nil},
		{"production/flux-system/infra-configs", flux, "clusters/production/infrastructure.yaml", p("infrastructure/configs"), kc, "production", "", p("clusters/production/infrastructure.yaml"), nil},
		{"production/flux-system/infra-controllers", flux, "clusters/production/infrastructure.yaml", p("infrastructure/controllers"), kc, "production", "", p("clusters/production/infrastructure.yaml"), nil},
		{"staging/flux-system/apps", flux, "clusters/staging/apps.yaml", p("apps/staging"), kc, "staging", "", p("clusters/staging/apps.yaml"), nil},
		{"staging/flux-system/infra-configs", flux, "clusters/staging/infrastructure.yaml", p("infrastructure/configs"), kc, "staging", "", p("clusters/staging/infrastructure.yaml"), nil},
		{"staging/flux-system/infra-controllers", flux, "clusters/staging/infrastructure.yaml", p("infrastructure/controllers"), kc, "staging", "", p("clusters/staging/infrastructure.yaml"), nil},
	}
	assertTargets(t, got, wants)
	ignores := map[string]string{
		"staging/flux-system/apps":                 "/*\n!/apps/\n/apps/*\n!/apps/base/\n!/apps/staging/",
		"production/flux-system/apps":              "/*\n!/apps/\n/apps/*\n!/apps/base/\n!/apps/production/",
		"staging/flux-system/infra-configs":        "/*\n!/infrastructure/",
		"production/flux-system/infra-controllers": "/*\n!/infrastructure/",
	}
	for _, g := range got {
		want, ok := ignores[g.Name]
		if !ok {
			continue
		}
		anns, _, _ := nestedMap(g.Deployer.Object, "metadata", "annotations")
		if anns[model.FluxSourceIgnoreKey] != want {
			t.Errorf("%s: the artifact's folders %q, want %q", g.Name, anns[model.FluxSourceIgnoreKey], want)
		}
	}
}
