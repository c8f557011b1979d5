package typing

import (
	"testing"

	// Helm's chartutil adds the CustomResourceDefinition kinds to
	// client-go's global scheme when imported, as the render does.
	_ "helm.sh/helm/v3/pkg/chartutil"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A kind a library adds to client-go's global scheme is not built in: it
// has no generated schema to merge it with.
func TestBuiltinIsClientGosOwn(t *testing.T) {
	crd := schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}
	if IsBuiltin(crd) {
		t.Error("CustomResourceDefinition is built in, want it typed from the API server or a snapshot")
	}
	deploy := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	if !IsBuiltin(deploy) {
		t.Fatal("Deployment is not built in")
	}
	obj := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"}}
	if _, err := Builtin().ObjectToTyped(&unstructured.Unstructured{Object: obj}); err != nil {
		t.Errorf("Deployment: %v", err)
	}
}
