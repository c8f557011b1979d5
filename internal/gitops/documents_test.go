package gitops

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// TestDiscoverMergeKeysWithOverrides: Kustomizations that share a spec
// through a merge key and override a key of it, as kustomize-controller
// reads them (the explicit key wins), are discovered; a key written twice
// beside a merge key is still an error.
func TestDiscoverMergeKeysWithOverrides(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"apps/kustomization.yaml":  "resources: []\n",
		"other/kustomization.yaml": "resources: []\n",
		"clusters/c/ks.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec: &spec
  path: ./apps
  sourceRef: {kind: GitRepository, name: flux-system}
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: other, namespace: flux-system}
spec:
  <<: &shared
    path: ./apps
    prune: true
    sourceRef: {kind: GitRepository, name: flux-system}
  path: ./other
`,
	})
	got, err := Discover(context.Background(), repo, []config.Discover{{Flux: "clusters/c", Context: "c"}})
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{}
	for _, g := range got {
		if len(g.Paths) == 1 {
			paths[g.Name] = g.Paths[0]
		}
	}
	if paths["flux-system/apps"] != "apps" || paths["flux-system/other"] != "other" {
		t.Errorf("paths %v, want apps and the override's other", paths)
	}
	repo = writeRepo(t, map[string]string{
		"apps/kustomization.yaml": "resources: []\n",
		"clusters/c/ks.yaml":      "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: apps}\nspec:\n  <<: {prune: true}\n  path: ./apps\n  path: ./other\n  sourceRef: {kind: GitRepository, name: flux-system}\n",
	})
	wantError(t, discoverErr(t, repo, []config.Discover{{Flux: "clusters/c", Context: "c"}}), "clusters/c/ks.yaml:7", `key "path" already set`)
}
