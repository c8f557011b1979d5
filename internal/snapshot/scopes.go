package snapshot

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Scopes tells, for each kind the snapshot knows, whether it is
// namespaced: from the recorded schemas, else the CustomResourceDefinitions
// the deploy applied, else the objects themselves (the snapshot is taken
// against the cluster, so an object recorded without a namespace is of a
// cluster-scoped kind). The offline engine has no cluster to ask, and a
// kind taken as namespaced by mistake gets a wrong identity.
func (s *Snapshot) Scopes() map[schema.GroupKind]bool {
	out := map[schema.GroupKind]bool{}
	for id := range s.Objects {
		gk := schema.GroupKind{Group: id.Group, Kind: id.Kind}
		if _, ok := out[gk]; !ok {
			out[gk] = id.Namespace != ""
		}
		if isCRD(id.Group, id.Kind) {
			e, err := s.Entry(id)
			if err != nil {
				continue
			}
			for _, u := range []*unstructured.Unstructured{e.Deployed, e.Applied} {
				if gk, namespaced, ok := crdScope(u); ok {
					out[gk] = namespaced
					break
				}
			}
		}
	}
	for gk, crd := range s.Schemas {
		if _, namespaced, ok := crdScope(crd); ok {
			out[gk] = namespaced
		}
	}
	return out
}

func isCRD(group, kind string) bool {
	return model.IsCRD(schema.GroupKind{Group: group, Kind: kind})
}

// crdScope reads the kind a CustomResourceDefinition defines and its scope.
func crdScope(crd *unstructured.Unstructured) (schema.GroupKind, bool, bool) {
	if crd == nil {
		return schema.GroupKind{}, false, false
	}
	group, _, _ := unstructured.NestedString(crd.Object, "spec", "group")
	kind, _, _ := unstructured.NestedString(crd.Object, "spec", "names", "kind")
	scope, _, _ := unstructured.NestedString(crd.Object, "spec", "scope")
	if kind == "" || (scope != "Cluster" && scope != "Namespaced") {
		return schema.GroupKind{}, false, false
	}
	return schema.GroupKind{Group: group, Kind: kind}, scope == "Namespaced", true
}
