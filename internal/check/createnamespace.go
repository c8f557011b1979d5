package check

import (
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
)

// createdNamespaces are the namespaces the deployer creates before its
// apply: an Argo CD Application's destination namespace with
// CreateNamespace=true among its sync options, which Argo CD creates when
// it is missing (its objects then dry-run as new, blocked until it
// exists). Flux's kustomize-controller creates only the Namespaces its
// render holds, which the engine finds in the render itself.
func createdNamespaces(d *model.Deployer) []string {
	if d == nil || d.Controller != model.ControllerArgoCD {
		return nil
	}
	opts, _, _ := unstructured.NestedStringSlice(d.Object, "spec", "syncPolicy", "syncOptions")
	ns, _, _ := unstructured.NestedString(d.Object, "spec", "destination", "namespace")
	if ns == "" || !slices.Contains(opts, "CreateNamespace=true") {
		return nil
	}
	return []string{ns}
}
