//go:build tools

// Package pinned keeps the deliberately pinned libraries in go.mod while the
// packages that use them are being written (see DEVELOPERS.md, "Pinned stack").
package pinned

import (
	_ "github.com/google/go-github/v66/github"
	_ "github.com/sethvargo/go-githubactions"
	_ "github.com/yuin/goldmark"
	_ "k8s.io/api/core/v1"
	_ "k8s.io/apimachinery/pkg/util/managedfields"
	_ "k8s.io/client-go/util/csaupgrade"
	_ "sigs.k8s.io/kustomize/api/krusty"
	_ "sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	_ "sigs.k8s.io/yaml"
)
