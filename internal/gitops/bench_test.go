package gitops

import (
	"context"
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// The monorepo the issue measures: 200 apps in 3 environments.
const benchApps = 200

var benchEnvs = []string{"dev", "staging", "production"}

// benchRepo writes each app's overlays and, per environment, one Flux
// Kustomization or one Argo CD Application for each app.
func benchRepo(b *testing.B, controller string) (Repository, []config.Discover) {
	files := map[string]string{}
	var entries []config.Discover
	clusters := map[string]string{}
	for _, env := range benchEnvs {
		files["clusters/"+env+"/flux-system/gotk-sync.yaml"] = `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata:
  name: flux-system
  namespace: flux-system
spec:
  url: ssh://git@github.com/example/platform
`
		clusters["https://"+env+".k8s.example.com"] = env
		if controller == "flux" {
			entries = append(entries, config.Discover{Flux: "clusters/" + env, Context: env})
		}
		for i := range benchApps {
			app := fmt.Sprintf("app-%03d", i)
			overlay := "apps/" + app + "/overlays/" + env
			files[overlay+"/kustomization.yaml"] = "resources:\n  - ../../base\n"
			files["clusters/"+env+"/apps/"+app+".yaml"] = fmt.Sprintf(`apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: %s
  namespace: flux-system
spec:
  interval: 10m
  path: ./%s
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
  targetNamespace: %s
  postBuild:
    substituteFrom:
      - kind: ConfigMap
        name: cluster-vars
`, app, overlay, app)
			files["argocd/"+env+"/"+app+".yaml"] = fmt.Sprintf(`apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: %s-%s
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/example/platform.git
    targetRevision: main
    path: %s
  destination:
    server: https://%s.k8s.example.com
    namespace: %s
  syncPolicy:
    syncOptions:
      - ServerSideApply=true
`, app, env, overlay, env, app)
		}
		files["apps/base/deployment.yaml"] = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\n"
	}
	if controller == "argocd" {
		entries = []config.Discover{{ArgoCD: "argocd", Clusters: clusters}}
	}
	return writeRepo(b, files), entries
}

func benchmarkDiscover(b *testing.B, controller string) {
	repo, entries := benchRepo(b, controller)
	b.ResetTimer()
	for range b.N {
		got, err := Discover(context.Background(), repo, entries)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != benchApps*len(benchEnvs) {
			b.Fatalf("%d targets, want %d", len(got), benchApps*len(benchEnvs))
		}
	}
}

// BenchmarkDiscover600 discovers 600 targets (200 apps × 3
// environments): the bound is one second, with selection.
func BenchmarkDiscover600(b *testing.B) {
	b.Run("flux", func(b *testing.B) { benchmarkDiscover(b, "flux") })
	b.Run("argocd", func(b *testing.B) { benchmarkDiscover(b, "argocd") })
}
