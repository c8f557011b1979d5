package predict

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestIndexDeps(t *testing.T) {
	d := indexDeps([]model.Object{
		obj(t, `{apiVersion: v1, kind: Namespace, metadata: {name: shop}}`),
		obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: shop}}`),
		obj(t, `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v0, served: false, storage: false}
`),
	})
	if !d.namespaces["shop"] || len(d.namespaces) != 1 {
		t.Errorf("namespaces %v; want only shop", d.namespaces)
	}
	crd, ok := d.crds[schema.GroupKind{Group: "example.com", Kind: "Widget"}]
	if !ok || crd.name != "widgets.example.com" || !crd.versions["v1"] || crd.versions["v0"] {
		t.Errorf("crds %v; want Widget.example.com from widgets.example.com serving v1 only", d.crds)
	}
}
