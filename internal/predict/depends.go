package predict

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
)

// renderDeps indexes what the render itself creates that other objects of
// the render need first: Namespaces, and CustomResourceDefinitions by the
// kind they define. Flux applies these in an earlier stage; a dry-run of
// the rest cannot succeed until they exist, which explains the object
// instead of failing it.
type renderDeps struct {
	namespaces map[string]bool
	crds       map[schema.GroupKind]renderedCRD
}

type renderedCRD struct {
	name     string
	versions map[string]bool // served versions
}

func indexDeps(objs []model.Object) renderDeps {
	d := renderDeps{namespaces: map[string]bool{}, crds: map[schema.GroupKind]renderedCRD{}}
	for _, o := range objs {
		u := o.Object
		if u == nil {
			continue
		}
		gvk := u.GroupVersionKind()
		switch {
		case gvk.Group == "" && gvk.Kind == "Namespace":
			d.namespaces[u.GetName()] = true
		case model.IsCRD(gvk.GroupKind()):
			group, _, _ := unstructured.NestedString(u.Object, "spec", "group")
			kind, _, _ := unstructured.NestedString(u.Object, "spec", "names", "kind")
			crd := renderedCRD{name: u.GetName(), versions: map[string]bool{}}
			versions, _, _ := unstructured.NestedSlice(u.Object, "spec", "versions")
			for _, v := range versions {
				m, ok := v.(map[string]any)
				if !ok {
					continue
				}
				name, _, _ := unstructured.NestedString(m, "name")
				served, _, _ := unstructured.NestedBool(m, "served")
				if served {
					crd.versions[name] = true
				}
			}
			d.crds[schema.GroupKind{Group: group, Kind: kind}] = crd
		}
	}
	return d
}

func namespaceBlocked(ns string) string {
	return "cannot be dry-run until Namespace/" + ns + " exists"
}

func crdBlocked(crd string) string {
	return "cannot be dry-run until CustomResourceDefinition/" + crd + " exists"
}

func crdVersionBlocked(crd, version string) string {
	return "cannot be dry-run until CustomResourceDefinition/" + crd + " serves " + version
}
