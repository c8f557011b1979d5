package appset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// An ApplicationSet of a 200-app monorepo: git directories × 3
// environments through a matrix, 600 Applications.
func BenchmarkExpand600(b *testing.B) {
	root := b.TempDir()
	for i := range 200 {
		dir := filepath.Join(root, "apps", fmt.Sprintf("app-%03d", i))
		if err := os.MkdirAll(filepath.Join(dir, "base"), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources: [base]\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	repo := Repository{Root: root, URLs: []string{"https://github.com/example/gitops.git"}}
	appSet := parseAppSet(b, `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: apps, namespace: argocd}
spec:
  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
  - matrix:
      generators:
      - git:
          repoURL: git@github.com:example/gitops.git
          revision: HEAD
          directories:
          - path: apps/*
      - list:
          elements:
          - {env: dev, server: https://dev.example}
          - {env: staging, server: https://staging.example}
          - {env: prod, server: https://prod.example}
  template:
    metadata:
      name: '{{.path.basename}}-{{.env}}'
      labels: {app: '{{.path.basename}}', env: '{{.env}}'}
    spec:
      project: default
      source:
        repoURL: https://github.com/example/gitops.git
        targetRevision: HEAD
        path: '{{.path.path}}'
        kustomize:
          namePrefix: '{{.env}}-'
          commonLabels: {env: '{{.env}}'}
      destination:
        server: '{{.server}}'
        namespace: '{{.path.basename}}'
      syncPolicy:
        syncOptions: [ServerSideApply=true]
`)
	b.ResetTimer()
	for range b.N {
		apps, reason, err := Expand(context.Background(), repo, appSet)
		if err != nil || reason != "" || len(apps) != 600 {
			b.Fatalf("%d apps, reason %q, err %v", len(apps), reason, err)
		}
	}
}
