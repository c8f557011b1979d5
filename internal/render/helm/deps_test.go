package helm

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestOneStructuredMergeDiff: the binary, which builds both Helm
// engines, holds structured-merge-diff v4 (the stack's, whose managedFields
// the prediction computes with) and no other: Helm 4's own modules would
// bring v6 (go.mod's replace block).
func TestOneStructuredMergeDiff(t *testing.T) {
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}} {{.Version}}{{with .Replace}} => {{.Version}}{{end}}{{end}}", "./cmd/ownership-check")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var smd, helm []string
	for _, m := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(m, "sigs.k8s.io/structured-merge-diff/"):
			smd = append(smd, m)
		case strings.HasPrefix(m, "helm.sh/helm/"):
			helm = append(helm, m)
		}
	}
	smd, helm = slices.Compact(slices.Sorted(slices.Values(smd))), slices.Compact(slices.Sorted(slices.Values(helm)))
	if len(smd) != 1 || !strings.HasPrefix(smd[0], "sigs.k8s.io/structured-merge-diff/v4 ") {
		t.Errorf("the binary builds structured-merge-diff %q; want v4 alone", smd)
	}
	if len(helm) != 2 || !strings.HasPrefix(helm[0], "helm.sh/helm/v3 ") || !strings.HasPrefix(helm[1], "helm.sh/helm/v4 ") {
		t.Errorf("the binary builds Helm %q; want Helm 3 and Helm 4", helm)
	}
	for _, m := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(m, "k8s.io/apimachinery ") && !strings.HasSuffix(m, " v0.33.13") {
			t.Errorf("the binary builds %s: the stack is k8s.io v0.33.13", m)
		}
	}
}
