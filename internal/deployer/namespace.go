package deployer

import (
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// CreatedNamespace is the Namespace the deployer creates before its
// apply, as an object of its own file: an Argo CD Application's
// destination namespace with CreateNamespace=true among its sync options,
// which Argo CD creates when it is missing, with the labels and
// annotations of managedNamespaceMetadata (which it also sets on one that
// exists). Predicted like the render's objects, it is a create when the
// cluster lacks it, and the Application's objects in it are new, blocked
// until it exists, as those in a Namespace of the render are (Flux
// applies a render's Namespaces first). False when the deployer creates
// none.
func CreatedNamespace(d *delivery.Deployer) (model.Object, bool) {
	if d == nil || d.Controller != delivery.ControllerArgoCD {
		return model.Object{}, false
	}
	opts, _, _ := unstructured.NestedStringSlice(d.Object, "spec", "syncPolicy", "syncOptions")
	ns, _, _ := unstructured.NestedString(d.Object, "spec", "destination", "namespace")
	if ns == "" || !slices.Contains(opts, "CreateNamespace=true") {
		return model.Object{}, false
	}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace"}}
	u.SetName(ns)
	if labels, _, _ := unstructured.NestedStringMap(d.Object, "spec", "syncPolicy", "managedNamespaceMetadata", "labels"); len(labels) > 0 {
		u.SetLabels(labels)
	}
	if annotations, _, _ := unstructured.NestedStringMap(d.Object, "spec", "syncPolicy", "managedNamespaceMetadata", "annotations"); len(annotations) > 0 {
		u.SetAnnotations(annotations)
	}
	return model.Object{ID: model.IDOf(u), Object: u, Source: d.File,
		Notes: []string{"Argo CD creates this Namespace before it applies (syncOptions CreateNamespace=true)"}}, true
}

// WithCreatedNamespace adds the Namespace the deployer creates to the
// render, unless the render holds it (then it is applied as rendered).
func WithCreatedNamespace(objs []model.Object, d *delivery.Deployer) ([]model.Object, model.Object, bool) {
	ns, ok := CreatedNamespace(d)
	if !ok || slices.ContainsFunc(objs, func(o model.Object) bool { return o.ID == ns.ID }) {
		return objs, model.Object{}, false
	}
	// A copy: the base's render was handed the list it had.
	return append(slices.Clip(objs), ns), ns, true
}

// Creates is what the deployer creates beside the render's objects (the
// Namespace Argo CD makes for CreateNamespace=true), so that a listing
// counts the objects a check of the target counts.
func Creates(objs []model.Object, d *delivery.Deployer) []model.Object {
	if _, ns, ok := WithCreatedNamespace(objs, d); ok {
		return []model.Object{ns}
	}
	return nil
}
