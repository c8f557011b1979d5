package predict

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// Argo CD's Replace=true: whatever the render lacks is gone, whoever set
// it.
func TestReplaceDropsWhatTheRenderLacks(t *testing.T) {
	testcluster.Require(t, cluster)
	o := ClusterOptions{FieldManager: "argocd-controller", Apply: delivery.ApplyMethod{Method: delivery.ApplyReplace}}
	e, kc := engine(t, cluster.Config(), o)
	ns := namespace(t, kc)
	create(t, kc, "argocd-controller", obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: `+ns+`}, data: {a: "1", b: "1"}}`))
	desired := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: `+ns+`}, data: {a: "2"}}`)
	edit(t, kc, desired, func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"team": "x"}) })

	r := predict(t, e, desired)[0]
	if r.Err != nil || r.Predicted == nil {
		t.Fatalf("err %v", r.Err)
	}
	if data := valueAt(r.Predicted, "data"); !model.EqualValues(data, map[string]any{"a": "2"}) {
		t.Errorf("data %v; want a alone", data)
	}
	if r.Predicted.GetLabels() != nil {
		t.Errorf("labels %v; the replace drops kubectl-edit's", r.Predicted.GetLabels())
	}
	if !owns(t, r.Predicted, "argocd-controller", "Update", ".data.a") {
		t.Errorf("managedFields %v", r.Predicted.GetManagedFields())
	}
	off := offlineOn(t, e.opts, r.Live, desired)
	if off.Err != nil {
		t.Fatal(off.Err)
	}
	sameWrite(t, "offline and cluster", off.Predicted, r.Predicted)

	body := applyBody(desired.Object, true, ns)
	body.SetResourceVersion(r.Live.GetResourceVersion())
	ri, _ := kc.Resource(desired.Object.GroupVersionKind(), ns)
	real, err := ri.Update(context.Background(), body, metav1.UpdateOptions{FieldManager: "argocd-controller"})
	if err != nil {
		t.Fatal(err)
	}
	sameWrite(t, "dry-run and the real replace", r.Predicted, real)

	fresh := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: fresh, namespace: `+ns+`}, data: {a: "2"}}`)
	if r := predict(t, e, fresh)[0]; r.Err != nil || r.Live != nil || !owns(t, r.Predicted, "argocd-controller", "Update", ".data.a") {
		t.Errorf("a new object is created: err %v", r.Err)
	}
}
