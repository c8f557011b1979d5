package check

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// TestResolveApplyOffline: offline, Helm 4's method is decided from the
// snapshot's deployed objects, and a client-side upgrade merges from the
// snapshot's applied config.
func TestResolveApplyOffline(t *testing.T) {
	cm := func(name string, op metav1.ManagedFieldsOperationType) (model.Object, *snapshot.Entry) {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "shop"}, "data": map[string]any{"k": "v"}}}
		deployed := u.DeepCopy()
		deployed.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "helm", Operation: op, APIVersion: "v1"}})
		return model.Object{ID: model.IDOf(u), Object: u}, &snapshot.Entry{Applied: u, Deployed: deployed}
	}
	helm3, e3 := cm("helm3", metav1.ManagedFieldsOperationUpdate)
	helm4, e4 := cm("helm4", metav1.ManagedFieldsOperationApply)
	fresh, _ := cm("fresh", "")
	snap := &snapshot.Snapshot{Objects: map[model.ID]*snapshot.Entry{helm3.ID: e3, helm4.ID: e4}}
	target := Target{FieldManager: "helm", Apply: delivery.ApplyMethod{Method: delivery.ApplyServerSide, Resolve: delivery.ResolveHelm}}

	for _, c := range []struct {
		objs []model.Object
		want delivery.ApplyMethod
	}{
		{[]model.Object{helm3, fresh}, delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest, PerRelease: true}},
		// An Apply entry on any object: the release was applied
		// server-side, and Helm merges none of its objects.
		{[]model.Object{helm4, helm3}, delivery.ApplyMethod{Method: delivery.ApplyServerSide, PerRelease: true, ReleaseServerSide: true}},
		{[]model.Object{fresh}, delivery.ApplyMethod{Method: delivery.ApplyServerSide, PerRelease: true}},
	} {
		got := resolveApplyOffline(target, snap, c.objs)
		got.Why, got.Resolve = "", ""
		if got != c.want {
			t.Errorf("%v: %+v, want %+v", c.objs[0].ID, got, c.want)
		}
	}

	csa := resolveApplyOffline(target, snap, []model.Object{helm3})
	original := previousManifest(csa, func() *snapshot.Snapshot { return snap })
	if original == nil || original(helm3.ID) != e3.Applied || original(fresh.ID) != nil {
		t.Errorf("previous manifest: not the snapshot's applied config")
	}
	if previousManifest(delivery.DefaultApply(), func() *snapshot.Snapshot { return snap }) != nil {
		t.Errorf("a server-side apply has a previous manifest")
	}
	if m := resolveApplyOffline(Target{Apply: delivery.DefaultApply()}, snap, []model.Object{helm3}); m != delivery.DefaultApply() {
		t.Errorf("a method without Resolve changed: %+v", m)
	}
}
