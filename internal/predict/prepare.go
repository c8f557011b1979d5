package predict

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// serverOwnedMetadata are the metadata fields the API server sets. A
// rendered object carries them only when it was exported from a cluster;
// sent back they make the apply fail (managedFields is refused by the
// client, a stale resourceVersion gives 409) or mean nothing.
var serverOwnedMetadata = []string{
	"managedFields", "resourceVersion", "uid", "creationTimestamp",
	"generation", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds",
}

// applyBody is the object as the dry-run sends it. status goes too:
// controllers write it through the status subresource, and the apply of the
// main resource ignores it for every kind that has one.
func applyBody(u *unstructured.Unstructured, namespaced bool, namespace string) *unstructured.Unstructured {
	out := u.DeepCopy()
	for _, f := range serverOwnedMetadata {
		unstructured.RemoveNestedField(out.Object, "metadata", f)
	}
	unstructured.RemoveNestedField(out.Object, "status")
	if namespaced {
		out.SetNamespace(namespace)
	} else {
		unstructured.RemoveNestedField(out.Object, "metadata", "namespace")
	}
	return out
}
