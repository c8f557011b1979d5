package predict

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// What the tests of each apply method share: the drift a deploy meets,
// and the comparison of a dry-run's answer with what the real request
// left, and with the offline engine's answer on the same live object.

// scaleTo is `kubectl scale`: an Update of the scale subresource.
func scaleTo(t *testing.T, kc *kube.Client, o model.Object, replicas int64) {
	t.Helper()
	scale := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]any{"name": o.Object.GetName(), "namespace": o.Object.GetNamespace()},
		"spec":     map[string]any{"replicas": replicas},
	}}
	ri, err := kc.Resource(o.Object.GroupVersionKind(), o.Object.GetNamespace())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ri.Update(context.Background(), scale, metav1.UpdateOptions{FieldManager: "kubectl"}, "scale"); err != nil {
		t.Fatal(err)
	}
}

// edit is `kubectl edit`: an Update of the whole object by kubectl-edit.
func edit(t *testing.T, kc *kube.Client, o model.Object, change func(*unstructured.Unstructured)) {
	t.Helper()
	live, err := get(t, kc, o)
	if err != nil {
		t.Fatal(err)
	}
	change(live)
	ri, err := kc.Resource(o.Object.GroupVersionKind(), o.Object.GetNamespace())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ri.Update(context.Background(), live, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}
}

// bookkeepingFree is u's content without what the server stamps on each
// write (and a dry-run stamps its own way): what a deploy's write is
// judged by, besides the owners.
func bookkeepingFree(u *unstructured.Unstructured) map[string]any {
	c := u.DeepCopy()
	for _, f := range []string{"managedFields", "resourceVersion", "uid", "creationTimestamp", "generation"} {
		unstructured.RemoveNestedField(c.Object, "metadata", f)
	}
	return c.Object
}

// sameWrite fails the test unless a and b hold the same values and the
// same managers own the same fields.
func sameWrite(t *testing.T, what string, a, b *unstructured.Unstructured) {
	t.Helper()
	if a == nil || b == nil {
		t.Fatalf("%s: %v and %v", what, a != nil, b != nil)
	}
	if !model.EqualValues(bookkeepingFree(a), bookkeepingFree(b)) {
		t.Errorf("%s: values differ:\n%v\n%v", what, bookkeepingFree(a), bookkeepingFree(b))
	}
	if oa, ob := owners(t, a), owners(t, b); !equalOwners(oa, ob) {
		t.Errorf("%s: owners differ:\n%v\n%v", what, oa, ob)
	}
}

// offlineOn predicts desired with the offline engine, live taken to be
// what the cluster holds, the method and manager the cluster engine's.
func offlineOn(t *testing.T, o ClusterOptions, live *unstructured.Unstructured, desired model.Object) Result {
	t.Helper()
	e := offlineEngine(t)
	e.opts.Live = func(model.ID) *unstructured.Unstructured { return live }
	e.opts.FieldManager, e.opts.Apply, e.opts.Original = o.FieldManager, o.Apply.OrDefault(), o.Original
	e.opts.UpgradesClientSide = o.UpgradesClientSide
	return predictOne(t, e, desired)
}

// valueAt is the value at path in u; nil when absent.
func valueAt(u *unstructured.Unstructured, path ...string) any {
	v, _, _ := unstructured.NestedFieldNoCopy(u.Object, path...)
	return v
}
