package config

import (
	"strings"
	"testing"
)

// TestDiscoverStrictSubstitution: strictSubstitution is a Flux entry's
// (kustomize-controller's feature gate), refused on an Argo CD one.
func TestDiscoverStrictSubstitution(t *testing.T) {
	c, err := Parse(".ownership-check.yaml", []byte("discover:\n- flux: clusters/prod\n  context: prod\n  strictSubstitution: true\n"))
	if err != nil || !c.Discover[0].StrictSubstitution {
		t.Fatalf("flux entry: %v %+v", err, c)
	}
	_, err = Parse(".ownership-check.yaml", []byte("discover:\n- argocd: argocd\n  strictSubstitution: true\n"))
	if err == nil || !strings.Contains(err.Error(), "strictSubstitution") {
		t.Errorf("argocd entry: %v, want strictSubstitution refused", err)
	}
}

// TestDiscoverFluxNeedsContext: a flux entry names its cluster's context,
// or says current on purpose; the error names the entry.
func TestDiscoverFluxNeedsContext(t *testing.T) {
	_, err := Parse(".ownership-check.yaml", []byte("discover:\n- flux: a\n  context: a\n- argocd: argocd\n- flux: clusters/prod\n"))
	if err == nil || !strings.Contains(err.Error(), "discover[2]: give context: <kubeconfig context>, or context: current to use the current one") {
		t.Errorf("flux entry without context: %v", err)
	}
	c, err := Parse(".ownership-check.yaml", []byte("discover:\n- flux: clusters/prod\n  context: current\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := KubeContext(c.Discover[0].Context); got != "" {
		t.Errorf("context: current is %q, want the kubeconfig's current context (\"\")", got)
	}
	if got := KubeContext("prod"); got != "prod" {
		t.Errorf("context: prod is %q", got)
	}
}
