package predict

import (
	"reflect"
	"testing"
)

func TestApplyBodyStripsServerFields(t *testing.T) {
	in := obj(t, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  namespace: wrong-for-a-cluster-scoped-kind
  resourceVersion: "42"
  uid: 0b6d1c8e-0000-0000-0000-000000000000
  creationTimestamp: "2024-01-01T00:00:00Z"
  generation: 3
  managedFields:
  - manager: kubectl
    operation: Update
  labels: {app: x}
data: {k: v}
status: {phase: Done}
`).Object
	before := in.DeepCopy()

	got := applyBody(in, true, "shop")
	want := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "x", "namespace": "shop", "labels": map[string]any{"app": "x"}},
		"data":     map[string]any{"k": "v"},
	}
	if !reflect.DeepEqual(got.Object, want) {
		t.Errorf("applyBody = %v\nwant %v", got.Object, want)
	}
	if !reflect.DeepEqual(in.Object, before.Object) {
		t.Error("applyBody changed its input")
	}
	if ns := applyBody(in, false, "").GetNamespace(); ns != "" {
		t.Errorf("cluster-scoped body keeps namespace %q", ns)
	}
}
