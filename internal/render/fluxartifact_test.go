package render

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TestFluxArtifactExcludesIgnoredFiles: a Flux render reads the
// GitRepository's artifact, not the repository: a file its spec.ignore, a
// .sourceignore or source-controller's default exclusions leave out does
// not exist for kustomize-controller, so a build that needs one fails as
// the controller's does, and one that does not is unaffected.
func TestFluxArtifactExcludesIgnoredFiles(t *testing.T) {
	cm := func(name string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: apps\ndata: {k: v}\n"
	}
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, content := range map[string]string{
		"apps/kustomization.yaml":      "resources: [a.yaml, extra/b.yaml]\n",
		"apps/a.yaml":                  cm("a"),
		"apps/extra/b.yaml":            cm("b"),
		"ci/kustomization.yaml":        "resources: [../.github/c.yaml]\n",
		".github/c.yaml":               cm("c"),
		"nested/kustomization.yaml":    "resources: [a.yaml, skipped.yaml]\n",
		"nested/a.yaml":                cm("n"),
		"nested/skipped.yaml":          cm("s"),
		"nested/.sourceignore":         "skipped.yaml\n",
		"generated/a.yaml":             cm("g"),
		"generated/local/ignored.yaml": cm("i"),
	} {
		writeFile(t, filepath.Join(root, p), content)
	}
	t.Chdir(root)
	render := func(dir, ignore string) (Result, error) {
		ks := map[string]any{"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
			"metadata": map[string]any{"name": "apps", "namespace": "flux-system"},
			"spec":     map[string]any{"path": "./" + dir, "sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"}}}
		return RenderAll(context.Background(), []string{dir}, Options{Deployer: &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: "clusters/apps.yaml", SourceIgnore: ignore}})
	}
	if res, err := render("apps", ""); err != nil || len(res.Objects) != 2 {
		t.Fatalf("apps without spec.ignore: %v, %d objects", err, len(res.Objects))
	}
	_, err := render("apps", "/apps/extra/\n")
	if err == nil || !errors.Is(err, fs.ErrNotExist) && !strings.Contains(err.Error(), "artifact") {
		t.Errorf("apps with /apps/extra/ ignored: %v, want the build to fail on extra/b.yaml as the controller's does", err)
	}
	if _, err := render("ci", ""); err == nil || !strings.Contains(err.Error(), "artifact") {
		t.Errorf("a resource under .github (a default exclusion): %v, want it missing", err)
	}
	if _, err := render("nested", ""); err == nil || !strings.Contains(err.Error(), "artifact") {
		t.Errorf("a resource its folder's .sourceignore leaves out: %v, want it missing", err)
	}
	res, err := render("generated", "local/\n")
	if err != nil || len(res.Objects) != 1 {
		t.Errorf("a folder without a kustomization, with a subfolder ignored: %v, %d objects, want a.yaml's alone", err, len(res.Objects))
	}
}
