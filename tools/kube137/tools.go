//go:build tools

// Package tools pins k8s.io/kubernetes at the newest served release so
// `go build k8s.io/kubernetes/cmd/kube-apiserver` resolves here.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
)
