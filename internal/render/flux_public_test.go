package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
)

// fluxExample is fluxcd/flux2-kustomize-helm-example, trimmed.
const fluxExample = "../../testdata/public/flux2-kustomize-helm-example"

// TestFluxRenderOfPublicExample: every Kustomization of
// fluxcd/flux2-kustomize-helm-example renders from the repository as
// Flux's own library builds it from its ExternalArtifact, made here as
// source-controller and source-watcher make it: the GitRepository's
// artifact (.sourceignore), then the ArtifactGenerator's copies into the
// artifact's own layout. Object for object, with the controller's labels.
func TestFluxRenderOfPublicExample(t *testing.T) {
	cfg, err := config.Load(filepath.Join(fluxExample, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	found, err := gitops.Discover(context.Background(), gitops.Repository{Root: fluxExample, URLs: cfg.Repositories}, cfg.Discover)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(fluxExample)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range found {
		if g.Source != delivery.ControllerFlux || g.FieldManager != "kustomize-controller" {
			continue
		}
		if !g.Checked() {
			t.Errorf("%s: not checked: %s", g.Name, g.Reason)
			continue
		}
		n++
		t.Run(g.Name, func(t *testing.T) {
			res, err := RenderAll(context.Background(), []string{filepath.Join(fluxExample, g.Paths[0])}, Options{Root: root, Deployer: g.Deployer, Values: fakeValues{}})
			if err != nil {
				t.Fatal(err)
			}
			ks := unstructured.Unstructured{Object: g.Deployer.Object}
			artifact, _, _ := unstructured.NestedString(ks.Object, "spec", "sourceRef", "name")
			spath, _, _ := unstructured.NestedString(ks.Object, "spec", "path")
			art := externalArtifact(t, filepath.Join(fluxExample, "clusters", g.Context, "artifacts.yaml"), artifact)
			want, _ := libraryRenderIn(t, art, ks.Object, spath, nil)
			sameAsLibrary(t, res, want, nil)
			if len(res.NotRendered) != 0 {
				t.Errorf("not rendered: %+v", res.NotRendered)
			}
		})
	}
	if n != 6 {
		t.Errorf("%d Kustomizations, want the example's 6 (3 per cluster)", n)
	}
}

// externalArtifact is the folder source-watcher makes of the artifact
// name of the ArtifactGenerator in file: each copy of a folder of the
// GitRepository's artifact ("@monorepo/<folder>/**") into its place.
func externalArtifact(t *testing.T, file, name string) string {
	t.Helper()
	repo := t.TempDir()
	if err := os.CopyFS(repo, os.DirFS(fluxExample)); err != nil {
		t.Fatal(err)
	}
	sourceControllerArtifact(t, repo)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	art := t.TempDir()
	for _, gen := range decodeAll(t, data) {
		arts, _, _ := unstructured.NestedSlice(gen, "spec", "artifacts")
		for _, a := range arts {
			a := a.(map[string]any)
			if a["name"] != name {
				continue
			}
			for _, c := range a["copy"].([]any) {
				c := c.(map[string]any)
				from := strings.TrimSuffix(strings.TrimPrefix(c["from"].(string), "@monorepo/"), "/**")
				to := strings.TrimPrefix(c["to"].(string), "@artifact/")
				if err := os.CopyFS(filepath.Join(art, to), os.DirFS(filepath.Join(repo, from))); err != nil {
					t.Fatal(err)
				}
			}
			return art
		}
	}
	t.Fatalf("%s: no artifact %s", file, name)
	return ""
}
