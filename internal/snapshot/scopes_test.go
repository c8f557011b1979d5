package snapshot

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func crdOf(group, kind, scope string) *unstructured.Unstructured {
	return obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "", kind+"s."+group, map[string]any{
		"spec": map[string]any{"group": group, "scope": scope, "names": map[string]any{"kind": kind}},
	})
}

// The offline engine learns kinds' scopes from the snapshot: recorded
// schemas first, then CRDs the deploy applied, then the recorded objects.
func TestSnapshotScopes(t *testing.T) {
	objs := append(fixtures(),
		// A cluster-scoped custom kind without a recorded schema (its CRD
		// could not be read when the snapshot was taken).
		obj("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime", "", "torch", nil),
		// A kind whose CRD the deploy applied, no object of it.
		crdOf("kubeflow.org", "Profile", "Cluster"),
		// A kind with a recorded schema.
		obj("example.com/v1", "Gizmo", "team", "g1", nil),
	)
	snap := newSnapshot("dev", hasher(t), objs...)
	snap.Schemas = map[schema.GroupKind]*unstructured.Unstructured{
		{Group: "example.com", Kind: "Gizmo"}: crdOf("example.com", "Gizmo", "Namespaced"),
	}
	got := snap.Scopes()
	for gk, want := range map[schema.GroupKind]bool{
		{Group: "apps", Kind: "Deployment"}:                               true,
		{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:         false,
		{Kind: "Namespace"}:                                               false,
		{Group: "trainer.kubeflow.org", Kind: "ClusterTrainingRuntime"}:   false,
		{Group: "kubeflow.org", Kind: "Profile"}:                          false,
		{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}: false,
		{Group: "example.com", Kind: "Gizmo"}:                             true,
	} {
		if ns, ok := got[gk]; !ok || ns != want {
			t.Errorf("%s: namespaced %t (known %t), want %t", gk, ns, ok, want)
		}
	}
	if _, ok := got[schema.GroupKind{Group: "x.io", Kind: "Unknown"}]; ok {
		t.Error("a kind the snapshot never saw is known")
	}
}
