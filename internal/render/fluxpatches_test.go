package render

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Under Flux, the repository's own patches are named, while the patches
// of the Kustomization's spec.patches, which kustomize-controller writes
// into the kustomization it builds, name the object's own file.
func TestFluxPatchesNameTheRepositorysPatch(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "app/deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"+
		"spec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: web, image: web:1}]}\n")
	writeFile(t, "app/kustomization.yaml", "resources: [deployment.yaml]\npatches:\n- path: replicas-patch.yaml\n")
	writeFile(t, "app/replicas-patch.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 3\n")
	ks := map[string]any{"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
		"metadata": map[string]any{"name": "app", "namespace": "flux-system"},
		"spec": map[string]any{"path": "./app", "sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"},
			"patches": []any{map[string]any{"target": map[string]any{"kind": "Deployment"},
				"patch": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  minReadySeconds: 9\n"}}}}
	d := &delivery.Deployer{Controller: delivery.ControllerFlux, Object: ks, File: "clusters/app.yaml"}
	res, err := RenderAll(context.Background(), []string{"app"}, Options{Deployer: d})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Objects) != 1 {
		t.Fatalf("rendered %v", res.Objects)
	}
	web := res.Objects[0]
	if v, _, _ := unstructured.NestedInt64(web.Object.Object, "spec", "minReadySeconds"); v != 9 {
		t.Fatalf("spec.patches not applied: %v", web.Object.Object["spec"])
	}
	for path, want := range map[string]string{".spec.replicas": "app/replicas-patch.yaml:5", ".spec.minReadySeconds": "app/deployment.yaml"} {
		p, err := model.ParsePath(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := web.SourceOf(p); got != want {
			t.Errorf("%s: set in %q, want %q", path, got, want)
		}
	}
}
