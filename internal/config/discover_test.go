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
