package render

import (
	"github.com/ownership-check/ownership-check/internal/render/source"

	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadsAreEveryInput: a render records every file kustomize reads
// (bases, components, patches, generator files, replacement sources) and
// the directories whose listing matters, and nothing it does not read.
func TestReadsAreEveryInput(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"apps/web/base/kustomization.yaml":          "resources:\n- deployment.yaml\nconfigMapGenerator:\n- name: web\n  files:\n  - app.properties\n",
		"apps/web/base/deployment.yaml":             "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: app\n        image: web:1\n",
		"apps/web/base/app.properties":              "mode=fast\n",
		"apps/web/overlays/prod/kustomization.yaml": "resources:\n- ../../base\ncomponents:\n- ../../../../components/team\npatches:\n- path: replicas.yaml\n",
		"apps/web/overlays/prod/replicas.yaml":      "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n",
		"components/team/kustomization.yaml":        "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ncommonLabels:\n  team: shop\n",
		"apps/other/kustomization.yaml":             "resources: []\n",
		"README.md":                                 "# repo\n",
	}
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reads := source.NewReads()
	if _, err := Render(context.Background(), []string{filepath.Join(root, "apps/web/overlays/prod")}, Options{Root: root, Reads: reads}); err != nil {
		t.Fatal(err)
	}
	got, dirs, outside := reads.Relative(root)
	for _, want := range []string{
		"apps/web/base/kustomization.yaml", "apps/web/base/deployment.yaml", "apps/web/base/app.properties",
		"apps/web/overlays/prod/kustomization.yaml", "apps/web/overlays/prod/replicas.yaml", "components/team/kustomization.yaml",
	} {
		if !contains(got, want) {
			t.Errorf("reads lack %s: %v", want, got)
		}
	}
	for _, not := range []string{"README.md", "apps/other/kustomization.yaml"} {
		if contains(got, not) {
			t.Errorf("reads have %s, which the build does not read", not)
		}
	}
	for _, want := range []string{"apps/web/base", "apps/web/overlays/prod", "components/team"} {
		if !contains(dirs, want) {
			t.Errorf("directories lack %s: %v", want, dirs)
		}
	}
	if outside != 0 {
		t.Errorf("%d reads outside the repository", outside)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s || strings.TrimSuffix(x, "/") == s {
			return true
		}
	}
	return false
}
